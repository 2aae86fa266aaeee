import { nowIso } from '../../clock.js';
import { formatEvent, type SseWriter } from './sse-writer.js';

/**
 * The write path shared by every SSE stream: each write resets a silence timer, and after
 * `intervalMs` without one a `ping` goes out, unless the client already lags beyond the writer's
 * limit, in which case `onTooSlow` decides what to do (the streams drop such a client).
 */
export class KeepAliveSender {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly writer: SseWriter,
    private readonly intervalMs: number,
    private readonly onTooSlow: () => void,
  ) {}

  start(): void {
    this.timer = setTimeout(() => this.ping(), this.intervalMs);
    this.timer.unref();
  }

  /** Writes `text`; false when the client's buffer is full (wait for the writer to drain). */
  send(text: string): boolean {
    const accepted = this.writer.write(text);
    // refresh() re-arms the timer also after it fired, so pings keep coming while nothing else does.
    this.timer?.refresh();
    return accepted;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private ping(): void {
    if (!this.timer) return;
    if (!this.writer.fits()) {
      this.onTooSlow();
      return;
    }
    this.send(formatEvent({ event: 'ping', data: JSON.stringify({ timestamp: nowIso() }) }));
  }
}
