import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryStore } from '../../build/main/core/notify/delivery-store.js';
import type { Delivery } from '../../build/main/core/notify/delivery-types.js';
import { openDatabase } from '../../build/main/core/store/database.js';
import type { AgentCard, ErrorBody, Task, TaskStatus } from '../../build/main/shared/protocol.js';
import { runCli } from '../support/cli-process.js';
import { makeTempDir } from '../support/temp-dir.js';
import { startTestHost, type TestHost } from '../support/test-host.js';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../support/webhook-receiver.js';

const newSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** Resolves once `predicate` holds, re-checked after every attempt and every committed task event. */
function waitUntil(t: TestHost, predicate: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const offAttempt = t.host.notifier.onAttempt(() => check());
    const offEvent = t.host.store.onEvent(() => check());
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`${what} did not happen within ${timeoutMs} ms`));
    }, timeoutMs);
    function finish(): void {
      clearTimeout(timer);
      offAttempt();
      offEvent();
    }
    function check(): void {
      if (!predicate()) return;
      finish();
      resolve();
    }
    check();
  });
}

/** A receiver records a request before the notifier has read its answer: wait for the bookkeeping. */
function allDelivered(t: TestHost, taskId: string): Promise<void> {
  const done = (): boolean => {
    const rows = t.host.deliveries.listForTask(taskId);
    return rows.length > 0 && rows.every((d) => d.state === 'delivered');
  };
  return waitUntil(t, done, `every delivery of ${taskId} marked delivered`);
}

/** The task as each of its status changes left it, from the store's event log. */
function statusSnapshots(t: TestHost, taskId: string): Task[] {
  return t.host.store.listEvents(taskId).filter((e) => e.kind === 'status').map((e) => e.data as Task);
}

/** The receiver got exactly the protocol's body for each status change of the task, in order. */
function expectNotifications(t: TestHost, got: ReceivedWebhook[], taskId: string, statuses: TaskStatus[]): void {
  const snapshots = statusSnapshots(t, taskId);
  expect(snapshots.map((task) => task.status)).toEqual(statuses);
  expect(got.map((r) => r.payload)).toEqual(
    snapshots.map((task) => ({ event_type: 'task.status.updated', timestamp: task.updated_at, data: task })),
  );
  for (const r of got) {
    expect(Object.keys(r.payload!)).toEqual(['event_type', 'timestamp', 'data']);
    expect(r.rejected).toBeUndefined();
    expect(r.headers['content-type']).toBe('application/json');
  }
}

const createTask = (t: TestHost, input: Record<string, unknown>, notificationConfig?: Record<string, unknown>) =>
  t.request<Task>('POST', '/agents/echo/tasks', notificationConfig ? { input, notification_config: notificationConfig } : { input });

describe('a notification for every status change', () => {
  let t: TestHost;
  let agentHook: WebhookReceiver;
  let taskHook: WebhookReceiver;
  const agentSecret = newSecret();
  const taskSecret = newSecret();
  const logLines: string[] = [];
  const taskConfig = (): Record<string, unknown> => ({
    endpoint_url: taskHook.url,
    auth_header: 'X-Task-Token: task-token-456',
    signing_secret: taskSecret,
  });

  beforeAll(async () => {
    agentHook = await startWebhookReceiver({ auth: ['authorization', 'Bearer agent-token-123'], secret: agentSecret });
    taskHook = await startWebhookReceiver({ auth: ['x-task-token', 'task-token-456'], secret: taskSecret });
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logLines.push(chunk.toString());
        callback();
      },
    });
    t = await startTestHost({
      pluginDirs: [],
      logger: pino({ level: 'trace' }, logStream),
      config: {
        agents: {
          echo: {
            notification_config: {
              endpoint_url: agentHook.url,
              auth_header: 'Authorization: Bearer agent-token-123',
              signing_secret: agentSecret,
            },
          },
        },
      },
    });
  });
  afterAll(async () => {
    await t?.cleanup();
    await agentHook?.close();
    await taskHook?.close();
  });

  const paths: Array<[string, Record<string, unknown>, (taskId: string) => Promise<void>, TaskStatus[]]> = [
    ['COMPLETED', { message: 'done' }, async () => undefined, ['SUBMITTED', 'WORKING', 'COMPLETED']],
    [
      'FAILED',
      { message: 'x', fail: { code: 'QUOTA_EXCEEDED', message: 'out of quota' } },
      async () => undefined,
      ['SUBMITTED', 'WORKING', 'FAILED'],
    ],
    [
      'CANCELLED',
      { message: 'x', delay_ms: 60_000 },
      async (id) => {
        await t.waitForStatus(id, 'WORKING');
        expect((await t.request('POST', `/agents/echo/tasks/${id}/cancel`)).status).toBe(202);
      },
      ['SUBMITTED', 'WORKING', 'CANCELLED'],
    ],
    [
      'INPUT_REQUIRED, WORKING, COMPLETED',
      { message: 'x', ask: 'Name?' },
      async (id) => {
        await t.waitForStatus(id, 'INPUT_REQUIRED');
        expect((await t.request('POST', `/agents/echo/tasks/${id}/input`, { input: { name: 'Ada' } })).status).toBe(200);
      },
      ['SUBMITTED', 'WORKING', 'INPUT_REQUIRED', 'WORKING', 'COMPLETED'],
    ],
  ];
  for (const [name, input, drive, statuses] of paths) {
    it(`sends SUBMITTED … ${name} to the agent's and the task's webhook, authenticated and signed, in order`, async () => {
      const created = await createTask(t, input, taskConfig());
      expect(created.status).toBe(202);
      const id = created.body.task_id;
      await drive(id);
      for (const hook of [agentHook, taskHook]) {
        await hook.waitFor(() => hook.acceptedFor(id).length >= statuses.length, `${statuses.join(', ')} for ${id}`);
        expectNotifications(t, hook.acceptedFor(id), id, statuses);
        expect(hook.received.filter((r) => r.rejected !== undefined)).toEqual([]);
      }
      const final = await t.request<Task>('GET', `/agents/echo/tasks/${id}`);
      expect(taskHook.acceptedFor(id).at(-1)!.payload!.data).toEqual(final.body);

      await allDelivered(t, id);
      const deliveries = t.host.deliveries.listForTask(id);
      expect(deliveries).toHaveLength(statuses.length * 2);
      expect(deliveries.every((d) => d.state === 'delivered' && d.signed)).toBe(true);
      for (const hook of [agentHook, taskHook]) {
        const mine = deliveries.filter((d) => d.endpoint_url === hook.url);
        expect(mine.map((d) => d.task_status)).toEqual(statuses);
        expect(hook.acceptedFor(id).map((r) => r.headers['webhook-id'])).toEqual(mine.map((d) => d.webhook_id));
      }
    });
  }

  it('sends one notification per change to a URL named by both the agent and the task, with the agent\'s credentials', async () => {
    const created = await createTask(t, { message: 'same URL' }, { endpoint_url: agentHook.url });
    const id = created.body.task_id;
    await agentHook.waitFor(() => agentHook.acceptedFor(id).length >= 3, 'three notifications');
    expectNotifications(t, agentHook.acceptedFor(id), id, ['SUBMITTED', 'WORKING', 'COMPLETED']);
    expect(t.host.deliveries.listForTask(id).map((d) => d.endpoint_url)).toEqual([agentHook.url, agentHook.url, agentHook.url]);
  });

  it('notifies only the agent\'s webhook for a task without its own', async () => {
    const created = await createTask(t, { message: 'agent only' });
    const id = created.body.task_id;
    await t.waitForStatus(id, 'COMPLETED');
    expect(t.host.deliveries.listForTask(id).map((d) => [d.endpoint_url, d.task_status])).toEqual([
      [agentHook.url, 'SUBMITTED'],
      [agentHook.url, 'WORKING'],
      [agentHook.url, 'COMPLETED'],
    ]);
  });

  it('has the deliveries of a status change committed with it', async () => {
    const missing: string[] = [];
    let seen = 0;
    const off = t.host.store.onEvent((event) => {
      if (event.kind !== 'status') return;
      seen += 1;
      // Runs right after the commit, before the notifier could do anything.
      const rows = t.host.deliveries.listForTask(event.task_id).filter((d) => d.status_event_id === event.id);
      if (rows.length !== 2) missing.push(`${(event.data as Task).status}: ${rows.length} deliveries`);
    });
    try {
      const created = await createTask(t, { message: 'tx' }, taskConfig());
      await t.waitForStatus(created.body.task_id, 'COMPLETED');
    } finally {
      off();
    }
    expect(seen).toBeGreaterThanOrEqual(3);
    expect(missing).toEqual([]);
  });

  it('refuses a malformed signing_secret on create (400), storing nothing', async () => {
    const before = t.host.deliveries.list({ limit: 1000 }).length;
    const res = await t.request<ErrorBody>('POST', '/agents/echo/tasks', {
      input: { message: 'x' },
      notification_config: { endpoint_url: taskHook.url, signing_secret: 'not-a-secret' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.text).toContain('signing_secret');
    expect(t.host.deliveries.list({ limit: 1000 })).toHaveLength(before);
  });

  it('never shows a signing secret or an auth header value in the card, an answer, the history or the log', async () => {
    // A failing endpoint makes the notifier log, so the log check below has something to look at.
    const created = await createTask(t, { message: 'secrets' }, { endpoint_url: 'http://127.0.0.1:1/hook', auth_header: 'X-Task-Token: task-token-456', signing_secret: taskSecret });
    const id = created.body.task_id;
    await waitUntil(t, () => t.host.deliveries.listForTask(id).some((d) => d.endpoint_url.endsWith(':1/hook') && d.attempts > 0 && d.last_error !== null), 'a failed attempt');

    const card = await t.request<AgentCard>('GET', '/agents/echo/agent-card.json');
    expect(card.body.notification_config).toEqual({ endpoint_url: agentHook.url, auth_header: 'Authorization: [redacted]' });
    const got = await t.request<Task>('GET', `/agents/echo/tasks/${id}`);
    const history = t.host.deliveries.listForTask(id);
    const details = history.map((d) => t.host.deliveries.get(d.id));
    expect(history.find((d) => d.endpoint_url.endsWith(':1/hook'))).toMatchObject({ auth_header: 'X-Task-Token: [redacted]', signed: true });
    const logText = logLines.join('');
    expect(logText).toContain('webhook delivery attempt failed');
    for (const text of [card.text, created.text, got.text, JSON.stringify(history), JSON.stringify(details), logText]) {
      for (const secret of [agentSecret, taskSecret, 'agent-token-123', 'task-token-456']) expect(text).not.toContain(secret);
    }
  });
});

describe('retries', () => {
  let t: TestHost;
  let hook: WebhookReceiver;
  const secret = newSecret();
  const config = (): Record<string, unknown> => ({ endpoint_url: hook.url, signing_secret: secret });
  // Short steps, then one long enough to see Retry-After honoured (it is capped at the longest step).
  const schedule = [...Array<number>(15).fill(150), 3000];

  beforeAll(async () => {
    hook = await startWebhookReceiver({ secret });
    t = await startTestHost({ pluginDirs: [], config: { notifications: { retry_schedule_ms: schedule, timeout_ms: 500 } } });
  });
  afterAll(async () => {
    await t?.cleanup();
    await hook?.close();
  });

  const first = (taskId: string): Delivery => t.host.deliveries.listForTask(taskId)[0]!;

  it('gets every notification through a closed port, a 500 and a hung receiver, in order, with a stable webhook-id', async () => {
    await hook.down();
    hook.setMode({ kind: 'ok' });
    const id = (await createTask(t, { message: 'flaky' }, config())).body.task_id;
    const attempts = () => t.host.deliveries.attempts(first(id).id);

    await waitUntil(t, () => attempts().some((a) => /ECONNREFUSED/.test(a.error ?? '')), 'a refused connection');
    hook.setMode({ kind: 'status', status: 500, body: 'receiver broke' });
    await hook.up();
    await waitUntil(t, () => attempts().some((a) => a.status_code === 500), 'an HTTP 500');
    hook.setMode({ kind: 'slow', ms: 2000 });
    await waitUntil(t, () => attempts().some((a) => /timed out after 500 ms/.test(a.error ?? '')), 'a timeout');
    hook.setMode({ kind: 'ok' });
    await hook.waitFor(() => hook.acceptedFor(id).length >= 3, 'all three notifications');

    expectNotifications(t, hook.acceptedFor(id), id, ['SUBMITTED', 'WORKING', 'COMPLETED']);
    await allDelivered(t, id);
    const submitted = first(id);
    expect(submitted.state).toBe('delivered');
    const history = attempts();
    expect(submitted.attempts).toBe(history.length);
    expect(history.every((a) => a.finished_at !== null && a.duration_ms !== null)).toBe(true);
    const kinds = history.map((a) => (a.status_code !== null ? String(a.status_code) : /ECONNREFUSED/.test(a.error!) ? 'refused' : /timed out/.test(a.error!) ? 'timeout' : a.error));
    const firstOf = (kind: string): number => kinds.indexOf(kind);
    expect(firstOf('refused')).toBe(0);
    expect(firstOf('500')).toBeGreaterThan(firstOf('refused'));
    expect(firstOf('timeout')).toBeGreaterThan(firstOf('500'));
    expect(kinds.at(-1)).toBe('204');
    expect(history.find((a) => a.status_code === 500)!.error).toBe('HTTP 500: receiver broke');
    // Every request for the SUBMITTED change, whatever the receiver did with it, had one webhook-id.
    const forSubmitted = hook.received.filter((r) => r.payload?.data.task_id === id && r.payload.data.status === 'SUBMITTED');
    expect(new Set(forSubmitted.map((r) => r.mode))).toEqual(new Set(['status', 'slow', 'ok']));
    expect(new Set(forSubmitted.map((r) => r.headers['webhook-id']))).toEqual(new Set([submitted.webhook_id]));
  });

  it('counts a redirect as a failure and does not follow it', async () => {
    hook.setMode({ kind: 'status', status: 302, headers: { location: '/moved' } });
    const id = (await createTask(t, { message: 'redirected' }, config())).body.task_id;
    await waitUntil(t, () => t.host.deliveries.attempts(first(id).id).filter((a) => a.status_code === 302).length >= 2, 'two redirected attempts');
    expect(first(id)).toMatchObject({ state: 'pending', last_status_code: 302 });
    hook.setMode({ kind: 'ok' });
    await hook.waitFor(() => hook.acceptedFor(id).length >= 3, 'all three notifications');
    expect(hook.received.filter((r) => r.path !== '/hook')).toEqual([]);
    expectNotifications(t, hook.acceptedFor(id), id, ['SUBMITTED', 'WORKING', 'COMPLETED']);
  });

  it('waits as long as Retry-After asks when that is longer than the schedule\'s step', async () => {
    hook.setMode({ kind: 'status', status: 503, headers: { 'retry-after': '2' } });
    const id = (await createTask(t, { message: 'busy' }, config())).body.task_id;
    await waitUntil(t, () => t.host.deliveries.attempts(first(id).id).some((a) => a.status_code === 503), 'a 503');
    hook.setMode({ kind: 'ok' });
    const [busy] = t.host.deliveries.attempts(first(id).id);
    const scheduled = Date.parse(first(id).next_attempt_at!) - Date.parse(busy!.finished_at!);
    // The schedule's own step here is 150 ms ± 20 %.
    expect(scheduled).toBeGreaterThanOrEqual(2000);
    await hook.waitFor(() => hook.acceptedFor(id).length >= 3, 'all three notifications');
    const [, retried] = t.host.deliveries.attempts(first(id).id);
    expect(Date.parse(retried!.started_at) - Date.parse(busy!.finished_at!)).toBeGreaterThanOrEqual(2000);
  });
});

describe('dead deliveries and redelivery', () => {
  let t: TestHost;
  let hook: WebhookReceiver;

  beforeAll(async () => {
    hook = await startWebhookReceiver({ mode: { kind: 'status', status: 500 } });
    t = await startTestHost({ pluginDirs: [], config: { notifications: { retry_schedule_ms: [100], timeout_ms: 2000 } } });
  });
  afterAll(async () => {
    await t?.cleanup();
    await hook?.close();
  });

  it('gives up after the last attempt, and redelivers on request (in process and from the CLI)', async () => {
    const id = (await createTask(t, { message: 'doomed' }, { endpoint_url: hook.url })).body.task_id;
    const all = (): Delivery[] => t.host.deliveries.listForTask(id);
    await waitUntil(t, () => all().length === 3 && all().every((d) => d.state === 'dead'), 'three dead deliveries');
    for (const d of all()) {
      expect(d).toMatchObject({ attempts: 2, last_status_code: 500, next_attempt_at: null, dead_at: expect.any(String) });
      expect(t.host.deliveries.attempts(d.id).map((a) => a.status_code)).toEqual([500, 500]);
    }
    const [submitted, working, completed] = all() as [Delivery, Delivery, Delivery];

    // A manual redelivery is one more attempt: failing, it is dead again, not a new round of retries.
    expect(t.host.deliveries.redeliver(completed.id)).toMatchObject({ ok: true, delivery: { state: 'pending' } });
    expect(t.host.deliveries.redeliver(completed.id)).toEqual({ ok: false, reason: 'pending' });
    await waitUntil(t, () => t.host.deliveries.get(completed.id)!.attempts === 3 && t.host.deliveries.get(completed.id)!.state === 'dead', 'the manual attempt');

    hook.setMode({ kind: 'ok' });
    expect(t.host.deliveries.redeliver(submitted.id).ok).toBe(true);
    await waitUntil(t, () => t.host.deliveries.get(submitted.id)!.state === 'delivered', 'the redelivery');
    expect(t.host.deliveries.attempts(submitted.id).map((a) => a.status_code)).toEqual([500, 500, 204]);
    expect(hook.acceptedFor(id).map((r) => r.headers['webhook-id'])).toEqual([submitted.webhook_id]);

    // Another process (the CLI) only writes the row; the running host's re-check picks it up.
    const cli = runCli(['deliveries', 'redeliver', String(working.id), '--data-dir', t.dataDir]);
    expect((await cli.exited).code).toBe(0);
    expect(cli.stdout()).toContain(`Delivery ${working.id} queued again`);
    await waitUntil(t, () => t.host.deliveries.get(working.id)!.state === 'delivered', 'the CLI redelivery');
    expect(hook.acceptedFor(id).map((r) => r.payload!.data.status)).toEqual(['SUBMITTED', 'WORKING']);

    const list = runCli(['deliveries', 'list', '--task', id, '--data-dir', t.dataDir]);
    expect((await list.exited).code).toBe(0);
    const lines = list.stdout().trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+STATE\s+ATTEMPTS\s+STATUS\s+TASK\s+ENDPOINT/);
    expect(lines.slice(1).map((line) => line.split(/\s+/).slice(0, 4))).toEqual([
      [String(submitted.id), 'delivered', '3', 'SUBMITTED'],
      [String(working.id), 'delivered', '3', 'WORKING'],
      [String(completed.id), 'dead', '3', 'COMPLETED'],
    ]);
    const dead = runCli(['deliveries', 'list', '--state', 'dead', '--data-dir', t.dataDir]);
    expect((await dead.exited).code).toBe(0);
    expect(dead.stdout().trim().split('\n').slice(1).map((line) => line.split(/\s+/)[0])).toEqual([String(completed.id)]);
    const unknown = runCli(['deliveries', 'redeliver', '999999', '--data-dir', t.dataDir]);
    expect((await unknown.exited).code).toBe(1);
    expect(unknown.stdout()).toContain('no delivery 999999');
  });
});

describe('restarts', () => {
  it('delivers after the next start what was pending when the host stopped', async () => {
    const hook = await startWebhookReceiver();
    await hook.down();
    const dir = makeTempDir();
    const config = { notifications: { retry_schedule_ms: Array<number>(10).fill(500), timeout_ms: 2000 } };
    let t2: TestHost | undefined;
    try {
      const t1 = await startTestHost({ dataDir: dir.dir, pluginDirs: [], config });
      const id = (await createTask(t1, { message: 'across a restart' }, { endpoint_url: hook.url })).body.task_id;
      await t1.waitForStatus(id, 'COMPLETED');
      await waitUntil(t1, () => t1.host.deliveries.attempts(t1.host.deliveries.listForTask(id)[0]!.id).some((a) => a.finished_at !== null), 'a failed attempt');
      await t1.stop();

      t2 = await startTestHost({ dataDir: dir.dir, pluginDirs: [], config });
      expect(t2.host.deliveries.listForTask(id).map((d) => d.state)).toEqual(['pending', 'pending', 'pending']);
      await hook.up();
      await hook.waitFor(() => hook.acceptedFor(id).length >= 3, 'all three notifications after the restart');
      expectNotifications(t2, hook.acceptedFor(id), id, ['SUBMITTED', 'WORKING', 'COMPLETED']);
    } finally {
      await t2?.stop();
      await hook.close();
      dir.cleanup();
    }
  });

  it('aborts an attempt still hung at shutdown, keeps it pending, and sends it after the next start', async () => {
    const hook = await startWebhookReceiver({ mode: { kind: 'hang' } });
    const dir = makeTempDir();
    const config = { runtime: { shutdown_grace_ms: 300 }, notifications: { timeout_ms: 60_000 } };
    let t2: TestHost | undefined;
    try {
      const t1 = await startTestHost({ dataDir: dir.dir, pluginDirs: [], config });
      const id = (await createTask(t1, { message: 'hung at shutdown' }, { endpoint_url: hook.url })).body.task_id;
      await t1.waitForStatus(id, 'COMPLETED');
      await hook.waitFor(() => hook.hanging() === 1, 'a hung request');
      await t1.stop();

      const db = openDatabase(join(dir.dir, 'agent-host.db'));
      try {
        const deliveries = new DeliveryStore(db);
        const [submitted] = deliveries.listForTask(id);
        expect(submitted!.state).toBe('pending');
        expect(deliveries.attempts(submitted!.id)).toMatchObject([{ attempt: 1, error: 'aborted: the host is shutting down' }]);
      } finally {
        db.close();
      }

      hook.setMode({ kind: 'ok' });
      t2 = await startTestHost({ dataDir: dir.dir, pluginDirs: [], config });
      await hook.waitFor(() => hook.acceptedFor(id).length >= 3, 'all three notifications after the restart');
      expectNotifications(t2, hook.acceptedFor(id), id, ['SUBMITTED', 'WORKING', 'COMPLETED']);
    } finally {
      await t2?.stop();
      await hook.close();
      dir.cleanup();
    }
  });
});

describe('independent endpoints', () => {
  it('keeps delivering to a healthy endpoint while another one hangs', async () => {
    const stuck = await startWebhookReceiver({ mode: { kind: 'hang' } });
    const healthy = await startWebhookReceiver();
    // The hung endpoint's attempts would last a minute: far beyond the wait for the healthy one.
    const t = await startTestHost({
      pluginDirs: [],
      config: {
        runtime: { shutdown_grace_ms: 1000 },
        notifications: { timeout_ms: 60_000 },
        agents: { echo: { notification_config: { endpoint_url: stuck.url } } },
      },
    });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 6; i += 1) ids.push((await createTask(t, { message: `task ${i}` }, { endpoint_url: healthy.url })).body.task_id);
      await healthy.waitFor(() => ids.every((id) => healthy.acceptedFor(id).length >= 3), 'every notification at the healthy endpoint', 15_000);
      for (const id of ids) expectNotifications(t, healthy.acceptedFor(id), id, ['SUBMITTED', 'WORKING', 'COMPLETED']);

      // Nothing got through to the hung endpoint, and it never had more than its small in-flight limit.
      expect(stuck.received.filter((r) => r.accepted)).toEqual([]);
      expect(stuck.received.length).toBeLessThanOrEqual(4);
      const stuckDeliveries = ids.flatMap((id) => t.host.deliveries.listForTask(id)).filter((d) => d.endpoint_url === stuck.url);
      expect(stuckDeliveries).toHaveLength(18);
      expect(stuckDeliveries.every((d) => d.state === 'pending')).toBe(true);

      stuck.setMode({ kind: 'ok' });
      stuck.release();
      await stuck.waitFor(() => ids.every((id) => stuck.acceptedFor(id).length >= 3), 'every notification once the endpoint answers');
      for (const id of ids) expectNotifications(t, stuck.acceptedFor(id), id, ['SUBMITTED', 'WORKING', 'COMPLETED']);
    } finally {
      await t.cleanup();
      await stuck.close();
      await healthy.close();
    }
  });
});
