import { Agent } from 'undici';
import type { TaskEvent } from '../../shared/protocol.js';
import { nowIso } from '../clock.js';
import type { NotificationSettings } from '../config/host-config.js';
import type { Logger } from '../logger.js';
import type { DeliveryQueue, DueDelivery, NextStep } from './delivery-queue.js';
import type { DeliveryState } from './delivery-types.js';
import { endpointOrigin, redactCredentials } from './log-safety.js';
import { nextRetryDelay } from './retry-policy.js';
import { webhookHeaders } from './signing.js';
import { postWebhook, type PostOutcome } from './webhook-post.js';

/** What listeners (tests, later the UI) hear after each attempt. No credentials in it. */
export interface AttemptReport {
  delivery_id: number;
  task_id: string;
  webhook_id: string;
  endpoint_url: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  state: DeliveryState;
  next_attempt_at: string | null;
}

export interface NotifierOptions {
  queue: DeliveryQueue;
  /** Committed task events: a status event may have brought new deliveries. */
  events: { onEvent(listener: (event: TaskEvent) => void): () => void };
  /** In-process redeliveries (DeliveryStore.onQueued). */
  redeliveries: { onQueued(listener: () => void): () => void };
  settings: NotificationSettings;
  logger: Logger;
  /** Attempts in flight at once per endpoint; further due deliveries to it wait, others don't. */
  perEndpointConcurrency?: number;
  /** See the re-check in start(). */
  recheckMs?: number;
  random?: () => number;
}

interface InFlight {
  endpoint: string;
  controller: AbortController;
  done: Promise<void>;
}

/** setTimeout's largest delay; a later due time is simply re-armed when this fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The delivery engine. At least once: a delivery stays pending until a 2xx, across restarts. In
 * order per task and endpoint (see DeliveryQueue). Endpoints are independent: each has its own
 * small in-flight limit, so a slow or dead receiver only ever holds up its own deliveries.
 * Timer-driven: it wakes on a commit that may have queued deliveries and at the next due time.
 */
export class Notifier {
  private readonly inFlight = new Map<number, InFlight>();
  private readonly listeners = new Set<(report: AttemptReport) => void>();
  private readonly dispatcher: Agent;
  private readonly perEndpoint: number;
  private readonly unsubscribers: Array<() => void> = [];
  private state: 'idle' | 'running' | 'stopping' = 'idle';
  private stopped: Promise<void> | undefined;
  private pumpScheduled: NodeJS.Immediate | undefined;
  private dueTimer: NodeJS.Timeout | undefined;
  private recheckTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: NotifierOptions) {
    this.perEndpoint = options.perEndpointConcurrency ?? 4;
    const timeout = options.settings.timeout_ms;
    this.dispatcher = new Agent({ headersTimeout: timeout, bodyTimeout: timeout, connect: { timeout } });
  }

  start(): void {
    if (this.state !== 'idle') return;
    this.state = 'running';
    this.unsubscribers.push(
      this.options.events.onEvent((event) => {
        if (event.kind === 'status') this.kick();
      }),
      this.options.redeliveries.onQueued(() => this.kick()),
    );
    // Only for redeliveries queued by another process (the CLI): they send no in-process signal.
    // Everything this process queues wakes the notifier directly, and retries have their timer.
    this.recheckTimer = setInterval(() => this.kick(), this.options.recheckMs ?? 5000);
    this.recheckTimer.unref();
    this.kick();
  }

  /** Hears the outcome of every attempt; returns the unsubscribe function. */
  onAttempt(listener: (report: AttemptReport) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Starts what is due now (the final status changes of a shutdown), then starts nothing more;
   * attempts in flight get `graceMs` to finish, the rest are aborted and stay pending for the
   * next start.
   */
  stop(graceMs: number): Promise<void> {
    this.stopped ??= (async () => {
      if (this.state === 'running') this.pump();
      this.state = 'stopping';
      for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
      if (this.pumpScheduled) clearImmediate(this.pumpScheduled);
      clearTimeout(this.dueTimer);
      clearInterval(this.recheckTimer);
      const running = Promise.allSettled([...this.inFlight.values()].map((entry) => entry.done));
      let graceTimer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'grace-over'>((resolve) => {
        graceTimer = setTimeout(() => resolve('grace-over'), graceMs);
      });
      if ((await Promise.race([running, graceOver])) === 'grace-over') {
        for (const entry of this.inFlight.values()) entry.controller.abort();
      }
      clearTimeout(graceTimer);
      await running;
      await this.dispatcher.destroy();
    })();
    return this.stopped;
  }

  /** Coalesces wake-ups into one pump on the next turn of the event loop. */
  private kick(): void {
    if (this.state !== 'running' || this.pumpScheduled) return;
    this.pumpScheduled = setImmediate(() => {
      this.pumpScheduled = undefined;
      this.pump();
    });
  }

  /** Starts every due delivery an endpoint has room for, then sleeps until the next due time. */
  private pump(): void {
    if (this.state !== 'running') return;
    const now = nowIso();
    try {
      for (const endpoint of this.options.queue.dueEndpoints(now)) {
        const busy = this.busy(endpoint);
        const room = this.perEndpoint - busy;
        if (room <= 0) continue;
        // Attempts in flight are still pending heads, so ask for that many more and skip them.
        const due = this.options.queue.dueHeads(endpoint, now, room + busy).filter((d) => !this.inFlight.has(d.id));
        for (const delivery of due.slice(0, room)) this.launch(delivery);
      }
      this.armDueTimer(this.options.queue.nextDueAfter(now));
    } catch (err) {
      this.options.logger.error({ err }, 'webhook notifier: cannot read the outbox');
    }
  }

  private busy(endpoint: string): number {
    let count = 0;
    for (const entry of this.inFlight.values()) if (entry.endpoint === endpoint) count += 1;
    return count;
  }

  private armDueTimer(at: string | undefined): void {
    clearTimeout(this.dueTimer);
    this.dueTimer = undefined;
    if (at === undefined) return;
    const delay = Math.min(Math.max(Date.parse(at) - Date.now(), 0), MAX_TIMER_MS);
    this.dueTimer = setTimeout(() => this.kick(), delay);
    this.dueTimer.unref();
  }

  private launch(delivery: DueDelivery): void {
    const controller = new AbortController();
    const done = this.attempt(delivery, controller.signal)
      .catch((err: unknown) => {
        this.options.logger.error({ err, delivery_id: delivery.id }, 'webhook notifier: cannot record an attempt');
      })
      .finally(() => {
        this.inFlight.delete(delivery.id);
        this.kick();
      });
    this.inFlight.set(delivery.id, { endpoint: delivery.endpoint_url, controller, done });
  }

  private async attempt(delivery: DueDelivery, signal: AbortSignal): Promise<void> {
    const startedMs = Date.now();
    const attempt = this.options.queue.beginAttempt(delivery.id, new Date(startedMs).toISOString());
    if (attempt === undefined) return;
    const outcome = await this.send(delivery, startedMs, signal);
    const finishedMs = Date.now();
    const next = this.nextStep(delivery, attempt, outcome, finishedMs);
    const statusCode = outcome.statusCode ?? null;
    const error = outcome.delivered ? null : redactCredentials(outcome.error, delivery);
    this.options.queue.finishAttempt({
      deliveryId: delivery.id,
      attempt,
      finishedAt: new Date(finishedMs).toISOString(),
      durationMs: finishedMs - startedMs,
      statusCode,
      error,
      next,
    });
    const report: AttemptReport = {
      delivery_id: delivery.id,
      task_id: delivery.task_id,
      webhook_id: delivery.webhook_id,
      endpoint_url: delivery.endpoint_url,
      attempt,
      status_code: statusCode,
      error,
      state: next.state,
      next_attempt_at: next.state === 'pending' ? next.at : null,
    };
    this.logAttempt(report, endpointOrigin(delivery.endpoint_url));
    for (const listener of this.listeners) {
      try {
        listener(report);
      } catch {
        // A listener's failure must not stop the engine or hide the outcome from the others.
      }
    }
  }

  private async send(delivery: DueDelivery, startedMs: number, signal: AbortSignal): Promise<PostOutcome> {
    try {
      const headers = webhookHeaders({
        webhookId: delivery.webhook_id,
        timestampSeconds: Math.floor(startedMs / 1000),
        body: delivery.payload,
        authHeader: delivery.auth_header,
        signingSecret: delivery.signing_secret,
      });
      return await postWebhook({
        url: delivery.endpoint_url,
        headers,
        body: delivery.payload,
        timeoutMs: this.options.settings.timeout_ms,
        signal,
        dispatcher: this.dispatcher,
      });
    } catch (err) {
      // A request that cannot even be built (e.g. a bad URL) fails like any attempt and is retried.
      return { delivered: false, error: err instanceof Error ? err.message : String(err) };
    }
  }

  private nextStep(delivery: DueDelivery, attempts: number, outcome: PostOutcome, nowMs: number): NextStep {
    if (outcome.delivered) return { state: 'delivered' };
    // Cut short by the shutdown: due again at once, on the next start.
    if (outcome.aborted) return { state: 'pending', at: new Date(nowMs).toISOString() };
    // A manual redelivery is one attempt, not a new round of the schedule.
    if (delivery.manual_redeliver === 1) return { state: 'dead' };
    const retry: Parameters<typeof nextRetryDelay>[0] = { schedule: this.options.settings.retry_schedule_ms, attempts };
    if (outcome.retryAfterMs !== undefined) retry.retryAfterMs = outcome.retryAfterMs;
    if (this.options.random) retry.random = this.options.random;
    const delay = nextRetryDelay(retry);
    return delay === undefined ? { state: 'dead' } : { state: 'pending', at: new Date(nowMs + delay).toISOString() };
  }

  /** The endpoint's origin only: a webhook URL's path or query can itself be a credential. */
  private logAttempt(report: AttemptReport, endpoint: string): void {
    const fields = {
      delivery_id: report.delivery_id,
      webhook_id: report.webhook_id,
      task_id: report.task_id,
      endpoint,
      attempt: report.attempt,
      status_code: report.status_code,
      error: report.error,
      next_attempt_at: report.next_attempt_at,
    };
    const { logger } = this.options;
    if (report.state === 'delivered') logger.debug(fields, 'webhook delivered');
    else if (report.state === 'dead') logger.warn(fields, `webhook delivery dead after ${report.attempt} attempts`);
    else logger.warn(fields, 'webhook delivery attempt failed; will retry');
  }
}
