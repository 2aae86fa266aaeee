import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LoadedAgent } from '../../../build/main/core/agents/loaded-agent.js';
import { DeliveryQueue, type NextStep } from '../../../build/main/core/notify/delivery-queue.js';
import { DeliveryStore } from '../../../build/main/core/notify/delivery-store.js';
import { createOutboxHook } from '../../../build/main/core/notify/outbox.js';
import { openDatabase, type Db } from '../../../build/main/core/store/database.js';
import { TaskStore } from '../../../build/main/core/store/task-store.js';
import { makeTempDir } from '../../support/temp-dir.js';

const A = 'https://a.example/hook';
const B = 'https://b.example/hook';
const SECRET = 'whsec_c2VjcmV0LWtleS1ieXRlcw==';
const FAR = '9999-12-31T23:59:59.999Z';

describe('the delivery history and queue', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let db: Db;
  let store: TaskStore;
  let deliveries: DeliveryStore;
  let queue: DeliveryQueue;

  beforeEach(() => {
    tmp = makeTempDir();
    db = openDatabase(`${tmp.dir}/agent-host.db`);
    store = new TaskStore(db);
    deliveries = new DeliveryStore(db);
    queue = new DeliveryQueue(db);
    const agent = { slug: 'echo', notificationConfig: { endpoint_url: A, auth_header: 'Authorization: Bearer top-secret', signing_secret: SECRET } } as LoadedAgent;
    store.addStatusHook(createOutboxHook(db, { get: (slug) => (slug === 'echo' ? agent : undefined) }));
  });
  afterEach(() => {
    db.close();
    tmp.cleanup();
  });

  /** A task with three status changes: SUBMITTED, WORKING, COMPLETED, to A and (optionally) B. */
  const finishedTask = (alsoB = false): string => {
    const { task } = store.createTask({ agentSlug: 'echo', agentId: 'x', input: {}, ...(alsoB ? { notificationConfig: { endpoint_url: B } } : {}) });
    store.transition(task.task_id, 'WORKING');
    store.transition(task.task_id, 'COMPLETED', { output: {} });
    return task.task_id;
  };
  const now = (): string => new Date().toISOString();
  const settle = (id: number, next: 'delivered' | 'dead' | string): void => {
    const attempt = queue.beginAttempt(id, now())!;
    const step: NextStep = next === 'delivered' || next === 'dead' ? { state: next } : { state: 'pending', at: next };
    queue.finishAttempt({ deliveryId: id, attempt, finishedAt: now(), durationMs: 1, statusCode: next === 'delivered' ? 200 : 500, error: next === 'delivered' ? null : 'HTTP 500', next: step });
  };

  it('offers only the oldest pending delivery of each task and endpoint', () => {
    const t1 = finishedTask(true);
    const t2 = finishedTask();
    const [s1a, s1b, w1a] = deliveries.listForTask(t1);
    const [s2a] = deliveries.listForTask(t2);
    expect(queue.dueEndpoints(now()).sort()).toEqual([A, B]);
    expect(queue.dueHeads(A, now(), 10).map((d) => d.id)).toEqual([s1a!.id, s2a!.id]);
    expect(queue.dueHeads(B, now(), 10).map((d) => d.id)).toEqual([s1b!.id]);
    expect(queue.dueHeads(A, now(), 1).map((d) => d.id)).toEqual([s1a!.id]);

    // A head waiting for its retry holds back its task's later deliveries to that endpoint only.
    settle(s1a!.id, FAR);
    expect(queue.dueHeads(A, now(), 10).map((d) => d.id)).toEqual([s2a!.id]);
    expect(queue.dueHeads(B, now(), 10).map((d) => d.id)).toEqual([s1b!.id]);
    expect(queue.nextDueAfter(now())).toBe(FAR);

    // Delivered and dead deliveries no longer hold anything back.
    settle(s1a!.id, 'dead');
    expect(queue.dueHeads(A, now(), 10).map((d) => d.id)).toEqual([w1a!.id, s2a!.id]);
    settle(w1a!.id, 'delivered');
    expect(queue.dueHeads(A, now(), 10).map((d) => d.task_id)).toEqual([t1, t2]);
    expect(queue.nextDueAfter(now())).toBeUndefined();
  });

  it('records each attempt and the outcome on the delivery', () => {
    const id = deliveries.listForTask(finishedTask())[0]!.id;
    const retryAt = new Date(Date.now() + 60_000).toISOString();
    settle(id, retryAt);
    expect(deliveries.get(id)).toMatchObject({ state: 'pending', attempts: 1, next_attempt_at: retryAt, last_status_code: 500, last_error: 'HTTP 500' });
    settle(id, 'delivered');
    expect(deliveries.get(id)).toMatchObject({ state: 'delivered', attempts: 2, next_attempt_at: null, last_status_code: 200, last_error: null, delivered_at: expect.any(String) });
    expect(deliveries.attempts(id)).toMatchObject([
      { delivery_id: id, attempt: 1, status_code: 500, error: 'HTTP 500', duration_ms: 1 },
      { delivery_id: id, attempt: 2, status_code: 200, error: null },
    ]);
    // No attempt starts on a delivery that is no longer pending.
    expect(queue.beginAttempt(id, now())).toBeUndefined();
  });

  it('redelivers a delivered or dead delivery once, keeping its history', () => {
    const [first, second] = deliveries.listForTask(finishedTask());
    expect(deliveries.redeliver(first!.id)).toEqual({ ok: false, reason: 'pending' });
    expect(deliveries.redeliver(424242)).toEqual({ ok: false, reason: 'not-found' });
    settle(first!.id, 'dead');
    const heard: number[] = [];
    deliveries.onQueued((id) => heard.push(id));
    const result = deliveries.redeliver(first!.id);
    expect(result).toMatchObject({ ok: true, delivery: { id: first!.id, state: 'pending', attempts: 1 } });
    expect(heard).toEqual([first!.id]);
    expect(queue.dueHeads(A, now(), 10).map((d) => [d.id, d.manual_redeliver])).toEqual([[first!.id, 1]]);
    settle(first!.id, 'delivered');
    expect(deliveries.get(first!.id)).toMatchObject({ state: 'delivered', attempts: 2 });
    expect(deliveries.attempts(first!.id)).toHaveLength(2);
    expect(queue.dueHeads(A, now(), 10).map((d) => [d.id, d.manual_redeliver])).toEqual([[second!.id, 0]]);
  });

  it('lists newest first, by state, page by page, without credentials', () => {
    finishedTask();
    finishedTask();
    const all = deliveries.list({ limit: 100 });
    expect(all.map((d) => d.id)).toEqual([...all.map((d) => d.id)].sort((a, b) => b - a));
    expect(all).toHaveLength(6);
    const page1 = deliveries.list({ limit: 4 });
    const page2 = deliveries.list({ limit: 4, beforeId: page1.at(-1)!.id });
    expect([...page1, ...page2].map((d) => d.id)).toEqual(all.map((d) => d.id));
    settle(all.at(-1)!.id, 'dead');
    expect(deliveries.list({ state: 'dead', limit: 10 }).map((d) => d.id)).toEqual([all.at(-1)!.id]);
    expect(deliveries.list({ state: 'delivered', limit: 10 })).toEqual([]);
    expect(deliveries.list({ limit: 0 })).toHaveLength(1);

    const shown = JSON.stringify([all, deliveries.get(all[0]!.id)]);
    expect(shown).not.toContain(SECRET);
    expect(shown).not.toContain('top-secret');
    expect(all[0]).toMatchObject({ auth_header: 'Authorization: [redacted]', signed: true });
    expect(Object.keys(all[0]!)).not.toContain('signing_secret');
  });
});
