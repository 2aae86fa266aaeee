/** Host-side helpers that turn a worker's output into task log lines without flooding the store. */
import type { Logger } from 'pino';
import type { LogEntry, TaskStore } from '../store/task-store.js';

/** Lines written in one transaction at most; a flush also happens on the next turn of the loop. */
export const LOG_FLUSH_LINES = 500;

/**
 * Collects a task's log lines and writes them with `store.appendLogs`, one transaction per batch:
 * when LOG_FLUSH_LINES are waiting, or on setImmediate, whichever comes first. Call `flush()`
 * before any status change so a task's log lines precede the status event that follows them.
 */
export class LogBatcher {
  private entries: LogEntry[] = [];
  private scheduled: NodeJS.Immediate | undefined;

  constructor(
    private readonly store: TaskStore,
    private readonly taskId: string,
    private readonly logger: Logger,
  ) {}

  push(entry: LogEntry): void {
    this.entries.push(entry);
    if (this.entries.length >= LOG_FLUSH_LINES) this.flush();
    else this.scheduled ??= setImmediate(() => this.flush());
  }

  flush(): void {
    if (this.scheduled) {
      clearImmediate(this.scheduled);
      this.scheduled = undefined;
    }
    if (this.entries.length === 0) return;
    const batch = this.entries;
    this.entries = [];
    try {
      this.store.appendLogs(this.taskId, batch);
    } catch (err) {
      // Losing log lines is bad; taking the host down over them would be worse.
      this.logger.error({ err, taskId: this.taskId, lines: batch.length }, 'could not store task log lines');
    }
  }
}

/**
 * Splits a text stream into lines. A line longer than `maxChars` is emitted cut, and the rest of
 * it is dropped up to the next newline, so a plugin printing without newlines cannot grow the
 * buffer without bound. Empty lines are skipped.
 */
export class LineSplitter {
  private buffer = '';
  private discarding = false;

  constructor(
    private readonly maxChars: number,
    private readonly emit: (line: string) => void,
  ) {}

  push(chunk: string): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf('\n', start);
      if (newline < 0) {
        this.append(chunk.slice(start));
        return;
      }
      this.append(chunk.slice(start, newline));
      this.endLine();
      start = newline + 1;
    }
  }

  /** Emits a last line that had no newline. */
  end(): void {
    if (!this.discarding) this.emitLine(this.buffer);
    this.buffer = '';
    this.discarding = false;
  }

  private append(part: string): void {
    if (this.discarding || part === '') return;
    this.buffer += part;
    if (this.buffer.length > this.maxChars) {
      this.emit(`${this.buffer.slice(0, this.maxChars)}… [line cut at ${this.maxChars} characters]`);
      this.buffer = '';
      this.discarding = true;
    }
  }

  private endLine(): void {
    if (this.discarding) this.discarding = false;
    else this.emitLine(this.buffer);
    this.buffer = '';
  }

  private emitLine(line: string): void {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text !== '') this.emit(text);
  }
}
