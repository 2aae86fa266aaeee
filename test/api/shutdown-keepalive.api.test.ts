/**
 * A request in flight when the host starts closing must not hold the shutdown: Node's
 * server.close() waits for a keep-alive connection whose response was not done yet, until the
 * keep-alive timeout (72 s). Its answer closes the connection instead.
 */
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/test-host.js';

let t: TestHost | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

describe('shutdown with a request in flight', () => {
  for (const listener of ['A2A', 'control'] as const) {
    it(`the ${listener} listener answers it with Connection: close, and its close completes`, async () => {
      t = await startTestHost();
      const base = new URL(listener === 'A2A' ? t.url : t.controlUrl);
      const agent = new Agent({ keepAlive: true });
      const body = JSON.stringify({ input: { message: 'late' } });
      let sockets = 0;
      const answered = new Promise<{ status: number; connection: string | undefined; socketClosed: Promise<void> }>((resolve, reject) => {
        const req = request(
          {
            host: base.hostname,
            port: base.port,
            method: 'POST',
            path: listener === 'A2A' ? '/agents/echo/tasks' : '/api/session',
            agent,
            headers: {
              'content-type': 'application/json',
              'content-length': String(Buffer.byteLength(body)),
              // The control API requires its own Origin on a POST; the A2A server refuses unknown ones.
              ...(listener === 'control' ? { origin: base.origin } : {}),
            },
          },
          (res) => {
            res.resume();
            const socketClosed = new Promise<void>((done) => res.socket.once('close', () => done()));
            resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, socketClosed });
          },
        );
        req.on('socket', () => (sockets += 1));
        req.on('error', reject);
        // Half the body now: the request is in flight, its handler not yet run.
        req.write(body.slice(0, 5));
        setTimeout(() => {
          closing = t!.host.close();
          // The rest after the close began.
          setTimeout(() => req.end(body.slice(5)), 50);
        }, 50);
      });
      let closing: Promise<void> | undefined;
      const response = await answered;
      expect(response.connection, JSON.stringify(response)).toBe('close');
      await response.socketClosed;
      await closing;
      expect(sockets).toBe(1);
      agent.destroy();
    });
  }

  it('connections that never sent a request (a browser\'s spare ones) do not hold the close either', async () => {
    t = await startTestHost();
    const idle = await Promise.all(
      [t.url, t.controlUrl].map(
        (url) =>
          new Promise<Socket>((resolve, reject) => {
            const socket = connect(Number(new URL(url).port), '127.0.0.1', () => resolve(socket));
            socket.on('error', reject);
          }),
      ),
    );
    const closedBy = idle.map((socket) => new Promise<void>((resolve) => socket.once('close', () => resolve())));
    await t.host.close();
    await Promise.all(closedBy);
  });
});
