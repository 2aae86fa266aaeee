import type { Db } from './database.js';

/** Rows deleted per transaction when clearing a task's log, so no single write holds the loop long. */
export const LOG_CHUNK = 5000;

const FINISHED = `status IN ('COMPLETED', 'FAILED', 'CANCELLED')`;

/**
 * Deletes finished tasks and everything stored about them (events, artifact rows, webhook
 * deliveries and their attempts, search text), for the retention job. Open tasks are never
 * touched, nor a task whose webhook is still being delivered: the outbox finishes first.
 * Files are the caller's job (see RetentionJob), as is pacing between the calls.
 */
export class TaskPurge {
  private readonly stmt;

  constructor(private readonly db: Db) {
    // Indexes named outright: without ANALYZE statistics (the host never gathers any) SQLite would
    // scan every finished task through tasks_status, and every pending delivery per task.
    const expired = `${FINISHED} AND updated_at < ?
      AND NOT EXISTS (SELECT 1 FROM deliveries AS d INDEXED BY deliveries_task
                      WHERE d.task_id = tasks.task_id AND d.state = 'pending')`;
    this.stmt = {
      // The WHERE clause implies the partial index's own (migration 3), so it may be used.
      candidates: db.prepare<[string, number], { task_id: string }>(
        `SELECT task_id FROM tasks INDEXED BY tasks_finished_updated WHERE ${expired} ORDER BY updated_at LIMIT ?`,
      ),
      stillExpired: db.prepare<[string, string], { one: number }>(
        `SELECT 1 AS one FROM tasks WHERE task_id = ? AND ${expired}`,
      ),
      logChunk: db.prepare<[string, number]>(
        `DELETE FROM task_events WHERE id IN (SELECT id FROM task_events WHERE task_id = ? AND kind = 'log' LIMIT ?)`,
      ),
      attempts: db.prepare<[string]>(
        'DELETE FROM delivery_attempts WHERE delivery_id IN (SELECT id FROM deliveries WHERE task_id = ?)',
      ),
      deliveries: db.prepare<[string]>('DELETE FROM deliveries WHERE task_id = ?'),
      artifacts: db.prepare<[string]>('DELETE FROM artifacts WHERE task_id = ?'),
      events: db.prepare<[string]>('DELETE FROM task_events WHERE task_id = ?'),
      // task_search rows go with it (ON DELETE CASCADE).
      task: db.prepare<[string]>('DELETE FROM tasks WHERE task_id = ?'),
    };
  }

  /** Up to `limit` ids of finished tasks last changed before `cutoff` (ISO time), oldest first. */
  expired(cutoff: string, limit: number): string[] {
    return this.stmt.candidates.all(cutoff, limit).map((row) => row.task_id);
  }

  /**
   * Deletes up to LOG_CHUNK of the task's log lines (the bulk of a big task), in one transaction;
   * returns how many went. Log events are referenced by nothing, so this is safe ahead of `remove`.
   */
  deleteLogChunk(taskId: string): number {
    return this.db.transaction(() => this.stmt.logChunk.run(taskId, LOG_CHUNK).changes).immediate();
  }

  /**
   * Deletes the tasks that are still expired at `cutoff` (one may have got a redelivery since it
   * was picked), with all their rows, in one transaction; returns the ids deleted.
   */
  remove(taskIds: readonly string[], cutoff: string): string[] {
    return this.db
      .transaction(() => {
        const removed: string[] = [];
        for (const taskId of taskIds) {
          if (!this.stmt.stillExpired.get(taskId, cutoff)) continue;
          // Children first: foreign keys are on.
          this.stmt.attempts.run(taskId);
          this.stmt.deliveries.run(taskId);
          this.stmt.artifacts.run(taskId);
          this.stmt.events.run(taskId);
          this.stmt.task.run(taskId);
          removed.push(taskId);
        }
        return removed;
      })
      .immediate();
  }
}
