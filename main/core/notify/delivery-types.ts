import type { Task, TaskStatus } from '../../shared/protocol.js';

export const DELIVERY_STATES = ['pending', 'delivered', 'dead'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** The protocol's push notification body; fixed when the delivery is created. */
export interface WebhookPayload {
  event_type: 'task.status.updated';
  /** The task's `updated_at`: when the reported change happened, the same on every retry. */
  timestamp: string;
  data: Task;
}

/**
 * One notification of one status change to one endpoint, as the UI and the CLI see it: the
 * signing secret never leaves the store (only whether there is one), the auth header's value is masked.
 */
export interface Delivery {
  id: number;
  task_id: string;
  /** The task_events row of the status change this delivery reports. */
  status_event_id: number;
  /** The status it reports. */
  task_status: TaskStatus;
  endpoint_url: string;
  auth_header: string | null;
  signed: boolean;
  /** `msg_<uuid>`, the same on every attempt: receivers dedupe on it. */
  webhook_id: string;
  state: DeliveryState;
  attempts: number;
  /** While pending: when it is attempted next (a later one of its task and endpoint waits for it). */
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  /** When it was last delivered / last declared dead; a redelivery keeps these until it settles again. */
  delivered_at: string | null;
  dead_at: string | null;
}

export interface DeliveryDetail extends Delivery {
  payload: WebhookPayload;
}

export interface DeliveryAttempt {
  delivery_id: number;
  attempt: number;
  started_at: string;
  /** Null while in flight, or when the host died during the attempt. */
  finished_at: string | null;
  status_code: number | null;
  error: string | null;
  duration_ms: number | null;
}

export type RedeliverResult =
  | { ok: true; delivery: Delivery }
  | { ok: false; reason: 'not-found' | 'pending' };
