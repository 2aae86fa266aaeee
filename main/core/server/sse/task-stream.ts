import type { FastifyBaseLogger } from 'fastify';
import type { TaskEvent, TaskEventDataMap, TaskEventKind } from '../../../shared/protocol.js';
import { isTerminal } from '../../../shared/task-states.js';
import { KeepAliveSender } from './keep-alive.js';
import { formatEvent, type SseWriter } from './sse-writer.js';

/** What a stream reads: the durable event log and the committed-event feed (TaskService). */
export interface TaskEventSource {
  /** Listeners hear events only after commit, in commit (= id) order. */
  onEvent(listener: (event: TaskEvent) => void): () => void;
  listEvents(taskId: string, afterId: number, limit: number): TaskEvent[];
}

export type StreamLogger = Pick<FastifyBaseLogger, 'info' | 'debug' | 'error'>;

/** Why a stream ended. */
export type StreamEnd = 'terminal' | 'client-gone' | 'too-slow' | 'shutdown' | 'error';

export interface TaskStreamOptions {
  source: TaskEventSource;
  taskId: string;
  /** Only events with a greater id are sent: the client's Last-Event-ID, or 0 for the whole history. */
  afterId: number;
  writer: SseWriter;
  /** Idle time after which a ping is sent. */
  pingMs: number;
  logger: StreamLogger;
  onEnd?: (reason: StreamEnd) => void;
}

/** History is read this many events at a time, so a 10,000-line log is never held whole. */
export const HISTORY_PAGE = 500;

/** How long a shutdown waits for a stream's last bytes to flush before cutting its connection. */
const SHUTDOWN_FLUSH_MS = 1000;

/** SSE event names. Prompt and answer events are not sent: the status events carry them. */
const EVENT_NAMES: Partial<Record<TaskEventKind, string>> = {
  status: 'status',
  log: 'log',
  artifact: 'artifact.update',
};

/** Every live subscriber of a task gets the same event object: format each one once. */
const frameCache = new WeakMap<TaskEvent, string>();

function eventData(event: TaskEvent): unknown {
  switch (event.kind) {
    case 'log': {
      // The protocol's log event, field for field.
      const { timestamp, level, message } = event.data as TaskEventDataMap['log'];
      return { timestamp, level, message };
    }
    case 'artifact':
      return { artifact_id: (event.data as TaskEventDataMap['artifact']).artifact_id };
    default:
      return event.data;
  }
}

/** The SSE frame of a task event, or undefined for the kinds that are not streamed. */
export function frameOf(event: TaskEvent): string | undefined {
  const name = EVENT_NAMES[event.kind];
  if (name === undefined) return undefined;
  let frame = frameCache.get(event);
  if (frame === undefined) {
    frame = formatEvent({ id: event.id, event: name, data: JSON.stringify(eventData(event)) });
    frameCache.set(event, frame);
  }
  return frame;
}

function endsStream(event: TaskEvent): boolean {
  return event.kind === 'status' && isTerminal((event.data as TaskEventDataMap['status']).status);
}

/**
 * One subscriber of one task. It subscribes to live events first (buffering them), replays the
 * history from the database in pages after `afterId`, then sends the buffer, skipping what the
 * history already had: no event is missed between the two and none is sent twice. It ends right
 * after the terminal status event, and drops a subscriber that cannot keep up rather than hold
 * more than the writer's `maxBufferBytes` for it (queued on its socket plus buffered here).
 */
export class TaskStream {
  private state: 'idle' | 'replay' | 'live' | 'ended' = 'idle';
  /** The highest event id read from the history or sent live. */
  private cursor: number;
  /** Live events that arrived during the replay, and their size on the wire. */
  private pending: TaskEvent[] = [];
  private pendingBytes = 0;
  private unsubscribe: () => void = () => undefined;
  private readonly sender: KeepAliveSender;

  constructor(private readonly options: TaskStreamOptions) {
    this.sender = new KeepAliveSender(options.writer, options.pingMs, () => this.drop());
    this.cursor = options.afterId;
  }

  /** Streams until the task ends, the client goes or `close()`; resolves when the replay is done. */
  async start(): Promise<void> {
    if (this.state !== 'idle') return;
    const { source, writer } = this.options;
    this.state = 'replay';
    // Live first: every event committed from here on is in the history read below or in `pending`.
    this.unsubscribe = source.onEvent((event) => this.onCommitted(event));
    this.sender.start();
    writer.onClose(() => this.finish('client-gone'));
    try {
      await this.replay();
    } catch (err) {
      this.options.logger.error({ err, taskId: this.options.taskId }, 'SSE stream failed');
      writer.destroy();
      this.finish('error');
    }
  }

  /** Ends the stream for a server shutdown. */
  close(): void {
    if (this.state === 'ended') return;
    this.options.writer.endAndClose(SHUTDOWN_FLUSH_MS);
    this.finish('shutdown');
  }

  private async replay(): Promise<void> {
    const { source, taskId, writer } = this.options;
    for (;;) {
      const page = source.listEvents(taskId, this.cursor, HISTORY_PAGE);
      for (const event of page) {
        this.cursor = event.id;
        const frame = frameOf(event);
        if (frame === undefined) continue;
        // Backpressure: wait for the client instead of queueing the whole history.
        if (!this.send(frame)) await writer.drained();
        if (!writer.open) {
          // Also before the connection's 'close' event: no need to read on for nobody.
          this.finish('client-gone');
          return;
        }
        if (endsStream(event)) {
          this.endAfterTerminal();
          return;
        }
      }
      if (page.length < HISTORY_PAGE) break;
    }
    const buffered = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    this.state = 'live';
    for (const event of buffered) {
      this.deliver(event);
      if (this.state !== 'live') return;
    }
  }

  private onCommitted(event: TaskEvent): void {
    if (event.task_id !== this.options.taskId) return;
    if (this.state === 'live') {
      this.deliver(event);
      return;
    }
    if (this.state !== 'replay') return;
    const frame = frameOf(event);
    if (frame === undefined) return;
    this.pending.push(event);
    this.pendingBytes += frame.length;
    if (!this.options.writer.fits(this.pendingBytes)) this.drop();
  }

  /** Sends a live event unless the history already had it. */
  private deliver(event: TaskEvent): void {
    if (event.id <= this.cursor) return;
    this.cursor = event.id;
    const frame = frameOf(event);
    if (frame === undefined) return;
    // Checked before writing, so one large event (a status carries the whole task) still goes
    // through to a client that keeps up; the bound is the limit plus one tick's events.
    if (!this.options.writer.fits()) {
      this.drop();
      return;
    }
    this.send(frame);
    if (endsStream(event)) this.endAfterTerminal();
  }

  private send(text: string): boolean {
    return this.sender.send(text);
  }

  private endAfterTerminal(): void {
    this.options.writer.end();
    this.finish('terminal');
  }

  private drop(): void {
    const { logger, taskId, writer } = this.options;
    logger.info(
      { taskId, waitingBytes: writer.backlog + this.pendingBytes, limit: writer.maxBufferBytes },
      'SSE subscriber dropped: it does not keep up with the events (server.sse_max_buffer_bytes)',
    );
    writer.destroy();
    this.finish('too-slow');
  }

  private finish(reason: StreamEnd): void {
    if (this.state === 'ended') return;
    this.state = 'ended';
    this.unsubscribe();
    this.sender.stop();
    this.pending = [];
    this.pendingBytes = 0;
    if (reason !== 'too-slow') this.options.logger.debug({ taskId: this.options.taskId, reason }, 'SSE stream ended');
    this.options.onEnd?.(reason);
  }
}
