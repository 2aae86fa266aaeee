import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** One server-sent event. `data` is JSON text. */
export interface SseEvent {
  event: string;
  data: string;
  /** The task_events id; absent on pings, so they never move a client's Last-Event-ID. */
  id?: number;
}

/** Headers of every stream, beside the ones the request's hooks set (CORS, nosniff). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  // no-transform: a compressing proxy would otherwise hold events back to fill its blocks.
  'cache-control': 'no-cache, no-transform',
  // nginx buffers proxied responses unless told not to.
  'x-accel-buffering': 'no',
  connection: 'keep-alive',
  'x-content-type-options': 'nosniff',
};

/**
 * The wire form of an event. JSON.stringify escapes every line break inside strings, so the
 * data always fits one `data:` line and can't end the event early or inject fields.
 */
export function formatEvent({ id, event, data }: SseEvent): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${data}\n\n`;
}

/**
 * Writes an SSE response on a raw (hijacked) ServerResponse and accounts for what the client
 * has not taken: `writableLength` counts what is queued in the response and its socket, the
 * memory a slow client costs us. Node corks a response for the rest of the tick on each write
 * and flushes it to the kernel on the next one, so the bytes written in the current tick are
 * always queued, even for a fast client: the backlog is what is still queued from earlier ticks.
 * (Node counts queued strings in characters: close enough to bytes for a memory bound.)
 */
export class SseWriter {
  private closed = false;
  private tickChars = 0;
  private tickResetPending = false;

  constructor(
    private readonly res: ServerResponse,
    readonly maxBufferBytes: number,
  ) {
    res.once('close', () => {
      this.closed = true;
    });
    // A failed write means the client is gone ('close' follows); unhandled, it would throw.
    res.on('error', () => this.destroy());
  }

  /** Until the response ended or its connection closed. */
  get open(): boolean {
    return !this.closed && !this.res.writableEnded && !this.res.destroyed;
  }

  /** What earlier ticks wrote and the client's connection has not taken yet. */
  get backlog(): number {
    return Math.max(0, this.res.writableLength - this.tickChars);
  }

  /** Whether `extraBytes` more may wait for this client without passing the limit. */
  fits(extraBytes = 0): boolean {
    return this.backlog + extraBytes <= this.maxBufferBytes;
  }

  /** Sends the status line and headers, then the reconnect delay EventSource clients should use. */
  start(headers: OutgoingHttpHeaders, retryMs: number): void {
    this.res.writeHead(200, headers);
    this.write(`retry: ${retryMs}\n\n`);
  }

  /** Writes one frame; false when the connection asks us to wait for 'drain'. */
  write(frame: string): boolean {
    if (!this.open) return false;
    const before = this.res.writableLength;
    const accepted = this.res.write(frame);
    // The growth, not frame.length: it includes the chunked encoding's framing (and headers).
    this.tickChars += this.res.writableLength - before;
    if (!this.tickResetPending) {
      this.tickResetPending = true;
      // Queued after the write's own uncork (process.nextTick runs in order): by then this
      // tick's bytes went to the kernel, and whatever is still queued is backlog.
      process.nextTick(() => {
        this.tickChars = 0;
        this.tickResetPending = false;
      });
    }
    return accepted;
  }

  /** Resolves once the queued bytes were taken (or the connection is gone). */
  drained(): Promise<void> {
    if (!this.open) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }

  /** Calls `listener` once when the connection closes (client gone, or after end/destroy). */
  onClose(listener: () => void): void {
    if (this.closed) queueMicrotask(listener);
    else this.res.once('close', listener);
  }

  /** Ends the response normally, after what is queued has been sent. */
  end(): void {
    if (this.open) this.res.end();
  }

  /**
   * Ends the response and closes its connection (for shutdown: an idle keep-alive connection
   * would hold the server's close). Once the end is flushed, or at once when bytes are still
   * queued, or after `graceMs` at the latest: a client that does not read must not hold it.
   */
  endAndClose(graceMs: number): void {
    if (!this.open || this.res.writableLength > 0) {
      this.destroy();
      return;
    }
    // Captured now: a finished response lets go of its socket.
    const socket = this.res.socket;
    const close = (): void => {
      clearTimeout(timer);
      socket?.destroy();
    };
    const timer = setTimeout(close, graceMs);
    timer.unref();
    this.res.end(close);
  }

  /** Drops the connection without flushing what is queued. */
  destroy(): void {
    this.res.destroy();
  }
}
