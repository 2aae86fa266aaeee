import { rm } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from '../logger.js';
import { isSafeTaskId, taskArtifactDir } from '../runtime/artifact-files.js';
import { LOG_CHUNK, type TaskPurge } from '../store/task-purge.js';

const DAY_MS = 24 * 60 * 60 * 1000;
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;
/** Tasks deleted per transaction: tens of milliseconds of work at most, then the loop runs again. */
export const TASKS_PER_BATCH = 100;

export interface RetentionJobOptions {
  purge: TaskPurge;
  artifactsRoot: string;
  /** `retention_days`, read at every pass, so a changed setting applies at the next one. */
  retentionDays: () => number;
  logger: Logger;
  intervalMs?: number;
}

/**
 * Deletes finished tasks (COMPLETED, FAILED, CANCELLED) not changed for `retention_days` days,
 * with their events, artifact rows, deliveries and artifact folders: at start, then hourly.
 * Work is cut into small transactions with a turn of the event loop between them, so requests
 * and running tasks never wait behind a large purge. 0 days keeps everything.
 */
export class RetentionJob {
  private readonly logger: Logger;
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<number> | undefined;
  private stopped = false;

  constructor(private readonly options: RetentionJobOptions) {
    this.logger = options.logger.child({ component: 'retention' });
  }

  start(): void {
    this.runSoon();
    this.timer = setInterval(() => this.runSoon(), this.options.intervalMs ?? RETENTION_INTERVAL_MS);
    this.timer.unref();
  }

  /** A pass in the background (after the settings changed, say); a failure is logged. */
  runSoon(): void {
    this.runNow().catch((err: unknown) => this.logger.error({ err }, 'retention pass failed'));
  }

  /** A pass now, or right after the one under way; resolves with how many tasks it deleted. */
  runNow(): Promise<number> {
    const previous = this.current ?? Promise.resolve(0);
    const next = previous.catch(() => 0).then(() => (this.stopped ? 0 : this.pass()));
    this.current = next;
    void next.finally(() => {
      if (this.current === next) this.current = undefined;
    }).catch(() => undefined);
    return next;
  }

  /** No new passes; waits for the one under way to stop at its next batch (before the DB closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.current?.catch(() => undefined);
  }

  private async pass(): Promise<number> {
    const days = this.options.retentionDays();
    if (days <= 0) return 0;
    const { purge } = this.options;
    const cutoff = new Date(Date.now() - days * DAY_MS).toISOString();
    let deleted = 0;
    while (!this.stopped) {
      const batch = purge.expired(cutoff, TASKS_PER_BATCH);
      if (batch.length === 0) break;
      for (const taskId of batch) {
        // A task may have logged hundreds of thousands of lines: clear those in chunks first.
        while (purge.deleteLogChunk(taskId) === LOG_CHUNK) {
          await nextTurn();
          if (this.stopped) return deleted;
        }
        // Files before rows: if the host stops in between, the rows are still expired and the
        // next pass deletes them, so no folder is ever left without its task.
        if (isSafeTaskId(taskId)) await rm(taskArtifactDir(this.options.artifactsRoot, taskId), { recursive: true, force: true });
      }
      const removed = purge.remove(batch, cutoff);
      deleted += removed.length;
      await nextTurn();
      // A short batch was the last; one where nothing could go (every task got a redelivery
      // meanwhile) would only be picked again.
      if (removed.length === 0 || batch.length < TASKS_PER_BATCH) break;
    }
    if (deleted > 0) this.logger.info({ deleted, retentionDays: days }, 'deleted finished tasks past the retention period');
    return deleted;
  }
}
