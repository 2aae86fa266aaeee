import type { Db } from '../store/database.js';

/** What the notifier needs to make one attempt; the only reader of the signing secret. */
export interface DueDelivery {
  id: number;
  task_id: string;
  endpoint_url: string;
  auth_header: string | null;
  signing_secret: string | null;
  webhook_id: string;
  payload: string;
  attempts: number;
  manual_redeliver: 0 | 1;
}

/** How an attempt ended, for its delivery: done, tried again at `at`, or given up. */
export type NextStep = { state: 'delivered' } | { state: 'pending'; at: string } | { state: 'dead' };

export interface FinishedAttempt {
  deliveryId: number;
  attempt: number;
  finishedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  next: NextStep;
}

/**
 * The notifier's view of the outbox: which deliveries are due, per endpoint, and the bookkeeping of
 * each attempt. A delivery is due when it is pending, its time has come, and it is the oldest
 * pending delivery of its task to its endpoint (so each receiver sees a task's changes in order).
 */
export class DeliveryQueue {
  private readonly stmt;

  constructor(private readonly db: Db) {
    // INDEXED BY: without ANALYZE statistics SQLite prefers the (state, id) index here, which scans
    // every pending row; these indexes keep each look-up proportional to what it returns.
    this.stmt = {
      dueEndpoints: db.prepare<[string], { endpoint_url: string }>(
        `SELECT DISTINCT endpoint_url FROM deliveries INDEXED BY deliveries_pending_due
         WHERE state = 'pending' AND next_attempt_at <= ?`,
      ),
      dueHeads: db.prepare<[string, string, number], DueDelivery>(
        `SELECT id, task_id, endpoint_url, auth_header, signing_secret, webhook_id, payload, attempts, manual_redeliver
         FROM deliveries AS d INDEXED BY deliveries_pending_endpoint
         WHERE d.state = 'pending' AND d.endpoint_url = ? AND d.next_attempt_at <= ?
           AND NOT EXISTS (SELECT 1 FROM deliveries AS e INDEXED BY deliveries_task
                           WHERE e.task_id = d.task_id AND e.endpoint_url = d.endpoint_url
                             AND e.id < d.id AND e.state = 'pending')
         ORDER BY d.next_attempt_at, d.id LIMIT ?`,
      ),
      nextDue: db.prepare<[string], { at: string | null }>(
        `SELECT MIN(next_attempt_at) AS at FROM deliveries INDEXED BY deliveries_pending_due
         WHERE state = 'pending' AND next_attempt_at > ?`,
      ),
      begin: db.prepare<[number], { attempts: number }>(`UPDATE deliveries SET attempts = attempts + 1 WHERE id = ? AND state = 'pending' RETURNING attempts`),
      insertAttempt: db.prepare<[number, number, string]>('INSERT INTO delivery_attempts (delivery_id, attempt, started_at) VALUES (?, ?, ?)'),
      finishAttempt: db.prepare<{ id: number; attempt: number; at: string; code: number | null; error: string | null; ms: number }>(
        `UPDATE delivery_attempts SET finished_at = @at, status_code = @code, error = @error, duration_ms = @ms
         WHERE delivery_id = @id AND attempt = @attempt`,
      ),
      delivered: db.prepare<{ id: number; at: string; code: number | null }>(
        `UPDATE deliveries SET state = 'delivered', delivered_at = @at, next_attempt_at = NULL, manual_redeliver = 0,
           last_status_code = @code, last_error = NULL
         WHERE id = @id AND state = 'pending'`,
      ),
      retry: db.prepare<{ id: number; next: string; code: number | null; error: string | null }>(
        `UPDATE deliveries SET next_attempt_at = @next, last_status_code = @code, last_error = @error
         WHERE id = @id AND state = 'pending'`,
      ),
      dead: db.prepare<{ id: number; at: string; code: number | null; error: string | null }>(
        `UPDATE deliveries SET state = 'dead', dead_at = @at, next_attempt_at = NULL, manual_redeliver = 0,
           last_status_code = @code, last_error = @error
         WHERE id = @id AND state = 'pending'`,
      ),
    };
  }

  /** Endpoints with at least one pending delivery whose time has come. */
  dueEndpoints(now: string): string[] {
    return this.stmt.dueEndpoints.all(now).map((row) => row.endpoint_url);
  }

  /** Up to `limit` due deliveries to `endpoint`, oldest due first, at most one per task. */
  dueHeads(endpoint: string, now: string, limit: number): DueDelivery[] {
    return this.stmt.dueHeads.all(endpoint, now, limit);
  }

  /** The earliest time after `now` at which a pending delivery becomes due. */
  nextDueAfter(now: string): string | undefined {
    return this.stmt.nextDue.get(now)?.at ?? undefined;
  }

  /**
   * Counts and records the start of an attempt before the request goes out, so a crash mid-attempt
   * leaves an unfinished attempt in the history and the delivery pending (retried on the next start).
   * Undefined when the delivery is no longer pending.
   */
  beginAttempt(deliveryId: number, startedAt: string): number | undefined {
    return this.db
      .transaction(() => {
        const attempt = this.stmt.begin.get(deliveryId)?.attempts;
        if (attempt !== undefined) this.stmt.insertAttempt.run(deliveryId, attempt, startedAt);
        return attempt;
      })
      .immediate();
  }

  finishAttempt(done: FinishedAttempt): void {
    this.db
      .transaction(() => {
        const { deliveryId: id, statusCode: code, error } = done;
        this.stmt.finishAttempt.run({ id, attempt: done.attempt, at: done.finishedAt, code, error, ms: done.durationMs });
        if (done.next.state === 'delivered') this.stmt.delivered.run({ id, at: done.finishedAt, code });
        else if (done.next.state === 'pending') this.stmt.retry.run({ id, next: done.next.at, code, error });
        else this.stmt.dead.run({ id, at: done.finishedAt, code, error });
      })
      .immediate();
  }
}
