import type { TaskEvent } from '../../shared/protocol.js';
import type { ChangedPart, HostChanges } from '../host-changes.js';
import { changedFrame, taskFrame, type ControlStream, type Frame } from './event-stream.js';

/** A burst of changes (a notifier working through a backlog) becomes at most one event per part per window. */
export const CHANGED_WINDOW_MS = 250;
const MAX_CACHED_SLUGS = 10_000;

export interface ControlEventHubOptions {
  /** Committed task events (TaskStore.onEvent). */
  onEvent(listener: (event: TaskEvent) => void): () => void;
  changes: HostChanges;
  /** The agent of a task, for events that do not carry it (looked up once per task). */
  agentOf(taskId: string): string | undefined;
}

/**
 * Fans the host's live feed out to the open `GET /api/events` streams: one store subscription and
 * one frame per event, however many clients there are, and no work at all without clients.
 */
export class ControlEventHub {
  private readonly streams = new Set<ControlStream>();
  private readonly slugs = new Map<string, string>();
  private readonly windows = new Map<ChangedPart, { timer: NodeJS.Timeout; again: boolean }>();
  private readonly unsubscribe: Array<() => void>;

  constructor(private readonly options: ControlEventHubOptions) {
    this.unsubscribe = [options.onEvent((event) => this.onTaskEvent(event)), options.changes.on((what) => this.onChanged(what))];
  }

  /** Attach before the stream reads the log, so nothing committed meanwhile is missed. */
  attach(stream: ControlStream): void {
    this.streams.add(stream);
  }

  detach(stream: ControlStream): void {
    this.streams.delete(stream);
  }

  /** Closes every stream and stops listening (server shutdown). */
  close(): void {
    for (const stop of this.unsubscribe) stop();
    for (const { timer } of this.windows.values()) clearTimeout(timer);
    this.windows.clear();
    for (const stream of [...this.streams]) stream.close();
    this.streams.clear();
  }

  private broadcast(frame: Frame): void {
    for (const stream of this.streams) stream.push(frame);
  }

  private onTaskEvent(event: TaskEvent): void {
    if (this.streams.size === 0) return;
    const slug = this.agentOf(event.task_id);
    if (slug !== undefined) this.broadcast(taskFrame(event, slug));
  }

  private agentOf(taskId: string): string | undefined {
    let slug = this.slugs.get(taskId);
    if (slug === undefined) {
      slug = this.options.agentOf(taskId);
      if (slug === undefined) return undefined;
      // A task's agent never changes, so the cache is never stale; it is only bounded.
      if (this.slugs.size >= MAX_CACHED_SLUGS) this.slugs.clear();
      this.slugs.set(taskId, slug);
    }
    return slug;
  }

  /** Leading edge at once, then at most one more at the end of the window if more came. */
  private onChanged(what: ChangedPart): void {
    const window = this.windows.get(what);
    if (window) {
      window.again = true;
      return;
    }
    if (this.streams.size > 0) this.broadcast(changedFrame(what));
    const timer = setTimeout(() => {
      const ended = this.windows.get(what);
      this.windows.delete(what);
      if (ended?.again) this.onChanged(what);
    }, CHANGED_WINDOW_MS);
    timer.unref();
    this.windows.set(what, { timer, again: false });
  }
}
