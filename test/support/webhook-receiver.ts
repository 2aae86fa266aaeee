import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { WebhookPayload } from '../../build/main/core/notify/delivery-types.js';

/** How the receiver answers the next requests; tests switch it while a host is delivering. */
export type ReceiverMode =
  | { kind: 'ok' }
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: string }
  /** Answers 200, but only after `ms`: beyond a short notifier timeout, the notifier has given up. */
  | { kind: 'slow'; ms: number }
  /** Never answers until release() or close(). */
  | { kind: 'hang' };

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  payload: WebhookPayload | undefined;
  /** The mode that answered it. */
  mode: ReceiverMode['kind'];
  /** Answered 2xx at once: what a real receiver would have processed. */
  accepted: boolean;
  /** Why the auth header or the signature did not check out; undefined when they did. */
  rejected?: string;
}

export interface ReceiverOptions {
  /** The auth header the receiver insists on, e.g. ['authorization', 'Bearer x']. */
  auth?: [name: string, value: string];
  /** When set, every request must carry a valid Standard Webhooks signature for it. */
  secret?: string;
  mode?: ReceiverMode;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:PORT/hook`, stable across down()/up(). */
  url: string;
  port: number;
  received: ReceivedWebhook[];
  setMode(mode: ReceiverMode): void;
  /** Requests accepted (2xx, verified) for a task, first arrival of each webhook-id only. */
  acceptedFor(taskId: string): ReceivedWebhook[];
  /** Resolves once `predicate` holds, checked on every request (no polling). */
  waitFor(predicate: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Requests currently hung (mode hang). */
  hanging(): number;
  /** Answers every hung request still open with 200 (they then count as accepted). */
  release(): void;
  /** Stops listening and drops every connection: the port is closed. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** A real webhook receiver on loopback that checks what a careful orchestrator would check. */
export async function startWebhookReceiver(options: ReceiverOptions = {}): Promise<WebhookReceiver> {
  let mode: ReceiverMode = options.mode ?? { kind: 'ok' };
  const received: ReceivedWebhook[] = [];
  const waiters = new Set<() => void>();
  const hung = new Map<ServerResponse, ReceivedWebhook>();
  const verifier = options.secret ? new Webhook(options.secret) : undefined;

  const check = (headers: Record<string, string>, body: string): string | undefined => {
    if (options.auth && headers[options.auth[0].toLowerCase()] !== options.auth[1]) return 'wrong or missing auth header';
    if (headers['content-type'] !== 'application/json') return `content-type ${headers['content-type']}`;
    if (!/^msg_[0-9a-f-]{36}$/.test(headers['webhook-id'] ?? '')) return 'no webhook-id';
    if (!/^\d+$/.test(headers['webhook-timestamp'] ?? '')) return 'no webhook-timestamp';
    if (verifier) {
      try {
        verifier.verify(body, headers);
      } catch (err) {
        return `signature: ${(err as Error).message}`;
      }
    } else if (headers['webhook-signature'] !== undefined) {
      return 'signed although no secret is configured';
    }
    return undefined;
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = flatHeaders(req.headers);
      let payload: WebhookPayload | undefined;
      try {
        payload = JSON.parse(body) as WebhookPayload;
      } catch {
        payload = undefined;
      }
      const rejected = check(headers, body);
      const current = mode;
      const entry: ReceivedWebhook = { path: req.url ?? '', headers, body, payload, mode: current.kind, accepted: false };
      if (rejected !== undefined) entry.rejected = rejected;
      received.push(entry);
      if (rejected !== undefined) {
        res.writeHead(401).end(rejected);
      } else if (current.kind === 'ok') {
        entry.accepted = true;
        res.writeHead(204).end();
      } else if (current.kind === 'status') {
        res.writeHead(current.status, current.headers ?? {}).end(current.body ?? '');
      } else if (current.kind === 'slow') {
        setTimeout(() => {
          if (!res.destroyed) res.writeHead(200).end();
        }, current.ms).unref();
      } else {
        hung.set(res, entry);
        res.on('close', () => hung.delete(res));
      }
      for (const waiter of [...waiters]) waiter();
    });
  });

  const listen = (port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  const port = await listen(0);
  let listening = true;

  const down = async (): Promise<void> => {
    if (!listening) return;
    listening = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  };

  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    setMode: (next) => {
      mode = next;
    },
    acceptedFor: (taskId) => {
      const seen = new Set<string>();
      return received.filter((r) => {
        if (!r.accepted || r.payload?.data.task_id !== taskId) return false;
        const id = r.headers['webhook-id']!;
        if (seen.has(id)) return false;
        seen.add(id);
        return true;
      });
    },
    waitFor: (predicate, what, timeoutMs = 20_000) =>
      new Promise<void>((resolve, reject) => {
        const attempt = (): void => {
          if (!predicate()) return;
          clearTimeout(timer);
          waiters.delete(attempt);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(attempt);
          reject(new Error(`receiver: ${what} did not happen within ${timeoutMs} ms; received ${JSON.stringify(received.map((r) => [r.mode, r.payload?.data.status, r.rejected]))}`));
        }, timeoutMs);
        waiters.add(attempt);
        attempt();
      }),
    hanging: () => hung.size,
    release: () => {
      for (const [res, entry] of hung) {
        if (res.destroyed) continue;
        res.writeHead(200).end();
        entry.accepted = true;
      }
      hung.clear();
      for (const waiter of [...waiters]) waiter();
    },
    down,
    up: async () => {
      if (listening) return;
      await listen(port);
      listening = true;
    },
    close: async () => {
      for (const res of hung.keys()) res.destroy();
      hung.clear();
      await down();
    },
  };
}
