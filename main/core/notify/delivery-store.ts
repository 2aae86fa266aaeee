import type { TaskStatus } from '../../shared/protocol.js';
import { REDACTED } from '../agents/agent-card.js';
import { nowIso } from '../clock.js';
import type { Db } from '../store/database.js';
import type {
  Delivery,
  DeliveryAttempt,
  DeliveryDetail,
  DeliveryState,
  RedeliverResult,
  WebhookPayload,
} from './delivery-types.js';

interface DeliveryRow {
  id: number;
  task_id: string;
  status_event_id: number;
  task_status: TaskStatus;
  endpoint_url: string;
  auth_header: string | null;
  signed: 0 | 1;
  webhook_id: string;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
  dead_at: string | null;
}

/** Every column a caller may see; `signing_secret` is deliberately not among them. */
const PUBLIC_COLUMNS = `id, task_id, status_event_id, json_extract(payload, '$.data.status') AS task_status,
  endpoint_url, auth_header, (signing_secret IS NOT NULL) AS signed, webhook_id, state, attempts,
  next_attempt_at, last_status_code, last_error, created_at, delivered_at, dead_at`;

export const MAX_LIST_LIMIT = 1000;

export interface ListDeliveriesOptions {
  state?: DeliveryState;
  /** 1–1000. */
  limit: number;
  /** Page backwards: only deliveries with a smaller id. */
  beforeId?: number;
}

/** `Name: value` → `Name: [redacted]`, as the AgentCard shows it. */
function maskAuthHeader(header: string | null): string | null {
  if (header === null) return null;
  return `${header.split(':', 1)[0]!.trim()}: ${REDACTED}`;
}

function toDelivery(row: DeliveryRow): Delivery {
  return { ...row, auth_header: maskAuthHeader(row.auth_header), signed: row.signed === 1 };
}

/**
 * The webhook history, for the UI and the CLI: deliveries (newest first, or per task in order) and
 * their attempts, and manual redelivery. Rows never carry the signing secret or the auth value.
 */
export class DeliveryStore {
  private readonly queuedListeners = new Set<(deliveryId: number) => void>();
  private readonly stmt;

  constructor(db: Db) {
    this.stmt = {
      get: db.prepare<[number], DeliveryRow>(`SELECT ${PUBLIC_COLUMNS} FROM deliveries WHERE id = ?`),
      payload: db.prepare<[number], { payload: string }>('SELECT payload FROM deliveries WHERE id = ?'),
      forTask: db.prepare<[string], DeliveryRow>(`SELECT ${PUBLIC_COLUMNS} FROM deliveries WHERE task_id = ? ORDER BY id`),
      list: db.prepare<{ before: number; limit: number }, DeliveryRow>(
        `SELECT ${PUBLIC_COLUMNS} FROM deliveries WHERE id < @before ORDER BY id DESC LIMIT @limit`,
      ),
      listInState: db.prepare<{ state: DeliveryState; before: number; limit: number }, DeliveryRow>(
        `SELECT ${PUBLIC_COLUMNS} FROM deliveries INDEXED BY deliveries_state
         WHERE state = @state AND id < @before ORDER BY id DESC LIMIT @limit`,
      ),
      attempts: db.prepare<[number], DeliveryAttempt>(
        `SELECT delivery_id, attempt, started_at, finished_at, status_code, error, duration_ms
         FROM delivery_attempts WHERE delivery_id = ? ORDER BY attempt`,
      ),
      // manual_redeliver makes the notifier give this round one attempt, not a new schedule.
      redeliver: db.prepare<{ id: number; now: string }>(
        `UPDATE deliveries SET state = 'pending', next_attempt_at = @now, manual_redeliver = 1
         WHERE id = @id AND state IN ('delivered', 'dead')`,
      ),
      state: db.prepare<[number], { state: DeliveryState }>('SELECT state FROM deliveries WHERE id = ?'),
    };
  }

  get(id: number): DeliveryDetail | undefined {
    const row = this.stmt.get.get(id);
    const payload = this.stmt.payload.get(id)?.payload;
    if (!row || payload === undefined) return undefined;
    return { ...toDelivery(row), payload: JSON.parse(payload) as WebhookPayload };
  }

  /** The task's deliveries in the order they were created (status changes, then endpoints). */
  listForTask(taskId: string): Delivery[] {
    return this.stmt.forTask.all(taskId).map(toDelivery);
  }

  /** Deliveries newest first, optionally in one state; page on with `beforeId` = the last id seen. */
  list(options: ListDeliveriesOptions): Delivery[] {
    const limit = Math.min(Math.max(Math.trunc(options.limit), 1), MAX_LIST_LIMIT);
    const before = options.beforeId ?? Number.MAX_SAFE_INTEGER;
    const rows =
      options.state === undefined
        ? this.stmt.list.all({ before, limit })
        : this.stmt.listInState.all({ state: options.state, before, limit });
    return rows.map(toDelivery);
  }

  attempts(deliveryId: number): DeliveryAttempt[] {
    return this.stmt.attempts.all(deliveryId);
  }

  /**
   * Queues one fresh attempt of a delivered or dead delivery, due now; its attempt history stays.
   * A running host's notifier hears of it at once in this process, and within seconds otherwise.
   */
  redeliver(id: number): RedeliverResult {
    const changed = this.stmt.redeliver.run({ id, now: nowIso() }).changes === 1;
    if (!changed) {
      const state = this.stmt.state.get(id)?.state;
      return { ok: false, reason: state === undefined ? 'not-found' : 'pending' };
    }
    for (const listener of this.queuedListeners) {
      try {
        listener(id);
      } catch {
        // The row is committed; a failing listener must not turn that into an error.
      }
    }
    return { ok: true, delivery: toDelivery(this.stmt.get.get(id)!) };
  }

  /** In-process signal that a redelivery was queued; returns the unsubscribe function. */
  onQueued(listener: (deliveryId: number) => void): () => void {
    this.queuedListeners.add(listener);
    return () => this.queuedListeners.delete(listener);
  }
}
