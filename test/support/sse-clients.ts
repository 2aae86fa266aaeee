import { request, type IncomingHttpHeaders } from 'node:http';
import { EventSource, type ErrorEvent, type FetchLike } from 'eventsource';

/** One event as a client saw it; `data` is the parsed JSON. */
export interface SseMessage {
  event: string;
  /** The event's own id; '' when it had none. */
  id: string;
  data: unknown;
}

const EVENT_TYPES = ['status', 'log', 'artifact.update', 'ping'] as const;

/** Resolves when `predicate` holds for an item pushed into `items`; checks the existing ones first. */
class Waiters<T> {
  private readonly waiting = new Set<{ predicate: (item: T) => boolean; resolve: (item: T) => void }>();

  constructor(private readonly items: T[]) {}

  push(item: T): void {
    this.items.push(item);
    for (const waiter of [...this.waiting]) {
      if (waiter.predicate(item)) {
        this.waiting.delete(waiter);
        waiter.resolve(item);
      }
    }
  }

  waitFor(predicate: (item: T) => boolean, what: string, timeoutMs: number): Promise<T> {
    const found = this.items.find(predicate);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const waiter = {
        predicate,
        resolve: (item: T) => {
          clearTimeout(timer);
          resolve(item);
        },
      };
      const timer = setTimeout(() => {
        this.waiting.delete(waiter);
        reject(new Error(`no ${what} within ${timeoutMs} ms; got ${this.items.length} so far`));
      }, timeoutMs);
      this.waiting.add(waiter);
    });
  }
}

export interface EventSourceClient {
  source: EventSource;
  /** Every status, log, artifact.update and ping event, in order. */
  messages: SseMessage[];
  /** The error events: `code` is the HTTP status when one caused it. */
  errors: Array<{ code: number | undefined; readyState: number }>;
  waitFor(predicate: (message: SseMessage) => boolean, timeoutMs?: number): Promise<SseMessage>;
  /** The messages without pings. */
  events(): SseMessage[];
  /**
   * Resolves when the server ended the stream: EventSource then reports an error and would
   * reconnect. Unless `reconnect` was asked for, the client is closed at that point.
   */
  ended: Promise<void>;
  /** Resolves with the HTTP status when EventSource gave up on the stream (e.g. 204: it is CLOSED, no reconnects). */
  failed: Promise<number | undefined>;
  close(): void;
}

export interface EventSourceOptions {
  /** Sent as Last-Event-ID on the first connection (EventSource sends its own on reconnects). */
  lastEventId?: string;
  /** Let EventSource reconnect after the server ends the stream (default: close at once). */
  reconnect?: boolean;
}

/** A standard EventSource client (the `eventsource` package) on `url`. */
export function openEventSource(url: string, options: EventSourceOptions = {}): EventSourceClient {
  const messages: SseMessage[] = [];
  const waiters = new Waiters(messages);
  const errors: EventSourceClient['errors'] = [];
  let firstRequest = true;
  const fetchWithHeaders: FetchLike = (input, init) => {
    const extra: Record<string, string> = {};
    if (firstRequest && options.lastEventId !== undefined) extra['Last-Event-ID'] = options.lastEventId;
    firstRequest = false;
    return fetch(input, { ...init, headers: { ...init.headers, ...extra } });
  };
  const source = new EventSource(url, { fetch: fetchWithHeaders });
  for (const type of EVENT_TYPES) {
    source.addEventListener(type, (event: MessageEvent) => {
      waiters.push({ event: type, id: event.lastEventId, data: JSON.parse(String(event.data)) as unknown });
    });
  }
  let resolveEnded!: () => void;
  let resolveFailed!: (code: number | undefined) => void;
  const ended = new Promise<void>((resolve) => (resolveEnded = resolve));
  const failed = new Promise<number | undefined>((resolve) => (resolveFailed = resolve));
  source.addEventListener('error', (event: ErrorEvent) => {
    errors.push({ code: event.code, readyState: source.readyState });
    if (source.readyState === source.CONNECTING) {
      if (!options.reconnect) source.close();
      resolveEnded();
    } else if (source.readyState === source.CLOSED) {
      resolveFailed(event.code);
    }
  });
  return {
    source,
    messages,
    errors,
    waitFor: (predicate, timeoutMs = 20_000) => waiters.waitFor(predicate, 'matching event', timeoutMs),
    events: () => messages.filter((m) => m.event !== 'ping'),
    ended,
    failed,
    close: () => source.close(),
  };
}

/** One block of an event stream, field by field as written. */
export interface RawFrame {
  fields: Array<[string, string]>;
  /** The first value of `name`, if the frame has that field. */
  get(name: string): string | undefined;
}

/** Splits complete blocks (each ends with a blank line) off `text`. */
export function parseFrames(text: string): { frames: RawFrame[]; rest: string } {
  const blocks = text.split('\n\n');
  const rest = blocks.pop() ?? '';
  const frames = blocks.map((block): RawFrame => {
    const fields = block.split('\n').map((line): [string, string] => {
      const colon = line.indexOf(':');
      return colon < 0 ? [line, ''] : [line.slice(0, colon), line.slice(colon + 1).replace(/^ /, '')];
    });
    return { fields, get: (name) => fields.find(([field]) => field === name)?.[1] };
  });
  return { frames, rest };
}

export interface RawStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body received so far. */
  text(): string;
  frames: RawFrame[];
  waitForFrame(predicate: (frame: RawFrame) => boolean, timeoutMs?: number): Promise<RawFrame>;
  /** Resolves when the body ended (the server closed the stream) or the connection dropped. */
  ended: Promise<void>;
  close(): void;
}

/** A plain HTTP client reading the stream as text (to see the wire format itself). */
export function openRawStream(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<RawStream> {
  const target = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: target.hostname, port: target.port, path, headers }, (res) => {
      let body = '';
      let pending = '';
      const frames: RawFrame[] = [];
      const waiters = new Waiters(frames);
      // A dropped stream is an outcome the tests look at, not an error to throw.
      res.on('error', () => undefined);
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        const parsed = parseFrames(pending + chunk);
        pending = parsed.rest;
        for (const frame of parsed.frames) waiters.push(frame);
      });
      const ended = new Promise<void>((done) => {
        res.on('end', done);
        res.on('close', done);
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        text: () => body,
        frames,
        waitForFrame: (predicate, timeoutMs = 20_000) => waiters.waitFor(predicate, 'matching frame', timeoutMs),
        ended,
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}
