import type { FastifyBaseLogger } from 'fastify';
import type { ControlEvent } from '../../shared/control-api.js';
import type { TaskEvent } from '../../shared/protocol.js';
import type { ChangedPart } from '../host-changes.js';
import { KeepAliveSender } from '../server/sse/keep-alive.js';
import { formatEvent, type SseWriter } from '../server/sse/sse-writer.js';
import type { SlugTaggedEvent } from '../store/task-queries.js';

/** What a stream reads from the durable log of every task's events (TaskQueries). */
export interface ControlEventLog {
  allEventsAfter(afterId: number, limit: number): SlugTaggedEvent[];
  countEventsAfter(afterId: number, cap: number): number;
  lastEventId(): number;
}

/** One SSE frame and, for task events, the task_events id it carries. */
export interface Frame {
  id?: number;
  text: string;
}

/** Replay reads this many events at a time, waiting for the client between pages. */
export const REPLAY_PAGE = 500;
/** A client further behind than this is told to refetch (`reset`) instead of being replayed to. */
export const MAX_REPLAY = 50_000;
/** How long a shutdown lets a stream's last bytes flush before its connection is cut. */
const SHUTDOWN_FLUSH_MS = 1000;

function frameOf(event: ControlEvent, id?: number): Frame {
  const name = event.type;
  return id === undefined
    ? { text: formatEvent({ event: name, data: JSON.stringify(event) }) }
    : { id, text: formatEvent({ id, event: name, data: JSON.stringify(event) }) };
}

export function taskFrame(event: TaskEvent, agentSlug: string): Frame {
  return frameOf({ type: 'task', event, agent_slug: agentSlug }, event.id);
}

export function changedFrame(what: ChangedPart): Frame {
  return frameOf({ type: 'changed', what });
}

export type StreamEnd = 'client-gone' | 'too-slow' | 'shutdown' | 'error';

export interface ControlStreamOptions {
  log: ControlEventLog;
  /** The client's Last-Event-ID; undefined for a new client, which gets only what happens from now. */
  afterId: number | undefined;
  writer: SseWriter;
  /** Idle time after which a ping is sent. */
  pingMs: number;
  logger: Pick<FastifyBaseLogger, 'info' | 'debug' | 'error'>;
  onEnd?: (reason: StreamEnd) => void;
}

/**
 * One client of `GET /api/events`. It is attached to the live feed (`push`) before it reads the
 * log, replays every task event after the client's Last-Event-ID in pages (waiting for the client
 * between writes), then sends what arrived meanwhile, skipping ids the replay covered: nothing is
 * missed or repeated. A client more than MAX_REPLAY events behind gets `reset` instead. A client
 * that does not keep up (more than the writer's limit waiting for it) is dropped: it reconnects
 * with its Last-Event-ID and is replayed to from the database, which costs us no memory.
 */
export class ControlStream {
  private state: 'idle' | 'replay' | 'live' | 'ended' = 'idle';
  /** The newest task event id sent to (or skipped for) this client. */
  private cursor = 0;
  private pending: Frame[] = [];
  private pendingBytes = 0;
  private readonly sender: KeepAliveSender;

  constructor(private readonly options: ControlStreamOptions) {
    this.sender = new KeepAliveSender(options.writer, options.pingMs, () => this.drop());
  }

  /** Runs until the client goes, is dropped or `close()`; resolves once it is live. */
  async start(): Promise<void> {
    if (this.state !== 'idle') return;
    const { writer, log, afterId } = this.options;
    this.state = 'replay';
    this.sender.start();
    writer.onClose(() => this.finish('client-gone'));
    try {
      if (afterId === undefined) {
        // An id-only frame dispatches nothing but sets the client's Last-Event-ID, so even a
        // client that heard no task event yet resumes from here after a reconnect.
        this.cursor = log.lastEventId();
        this.send(`id: ${this.cursor}\n\n`);
      } else if (log.countEventsAfter(afterId, MAX_REPLAY + 1) > MAX_REPLAY) {
        this.cursor = log.lastEventId();
        this.send(frameOf({ type: 'reset' }, this.cursor).text);
      } else {
        this.cursor = afterId;
        await this.replay();
      }
      if (this.state !== 'replay') return;
      const buffered = this.pending;
      this.pending = [];
      this.pendingBytes = 0;
      this.state = 'live';
      for (const frame of buffered) {
        this.deliver(frame);
        if (this.state !== 'live') return;
      }
    } catch (err) {
      this.options.logger.error({ err }, 'control event stream failed');
      writer.destroy();
      this.finish('error');
    }
  }

  /** A live frame from the feed. */
  push(frame: Frame): void {
    if (this.state === 'live') {
      this.deliver(frame);
      return;
    }
    if (this.state !== 'replay') return;
    this.pending.push(frame);
    this.pendingBytes += Buffer.byteLength(frame.text);
    if (!this.options.writer.fits(this.pendingBytes)) this.drop();
  }

  /** Ends the stream for a server shutdown. */
  close(): void {
    if (this.state === 'ended') return;
    this.options.writer.endAndClose(SHUTDOWN_FLUSH_MS);
    this.finish('shutdown');
  }

  private async replay(): Promise<void> {
    const { log, writer } = this.options;
    for (;;) {
      const page = log.allEventsAfter(this.cursor, REPLAY_PAGE);
      for (const { event, agentSlug } of page) {
        this.cursor = event.id;
        // Backpressure: wait for the client rather than queue the whole backlog in memory.
        if (!this.send(taskFrame(event, agentSlug).text)) await writer.drained();
        if (this.state !== 'replay') return;
      }
      if (page.length < REPLAY_PAGE) return;
    }
  }

  private deliver(frame: Frame): void {
    if (frame.id !== undefined) {
      if (frame.id <= this.cursor) return;
      this.cursor = frame.id;
    }
    // Checked before writing, so one large frame still reaches a client that keeps up.
    if (!this.options.writer.fits()) {
      this.drop();
      return;
    }
    this.send(frame.text);
  }

  private send(text: string): boolean {
    return this.sender.send(text);
  }

  private drop(): void {
    const { logger, writer } = this.options;
    logger.info(
      { waitingBytes: writer.backlog + this.pendingBytes, limit: writer.maxBufferBytes },
      'control event stream dropped: the client does not keep up (server.sse_max_buffer_bytes)',
    );
    writer.destroy();
    this.finish('too-slow');
  }

  private finish(reason: StreamEnd): void {
    if (this.state === 'ended') return;
    this.state = 'ended';
    this.sender.stop();
    this.pending = [];
    this.pendingBytes = 0;
    this.options.logger.debug({ reason }, 'control event stream ended');
    this.options.onEnd?.(reason);
  }
}
