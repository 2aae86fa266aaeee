/**
 * What the desk changes: agents (saved to config.json and applied at once), API tokens, host
 * settings, and webhook deliveries, against a real host, a real config file and a real receiver.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AgentInfo,
  AgentList,
  ApiTokenInfo,
  CreatedApiTokenInfo,
  DeliveryAttempt,
  DeliveryListPage,
  DeliverySummary,
  SettingsInfo,
  TaskDetail,
} from '../../build/main/shared/control-api.js';
import type { AgentCard, AgentListing, ErrorBody, Task } from '../../build/main/shared/protocol.js';
import type { ControlClient } from '../support/control-client.js';
import { startTestHost, type TestHost } from '../support/test-host.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

let t: TestHost;
let client: ControlClient;
let receiver: WebhookReceiver;

const SECRET = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;

beforeAll(async () => {
  receiver = await startWebhookReceiver({ auth: ['authorization', 'Bearer hook-secret'], secret: SECRET });
  t = await startTestHost({
    config: {
      $schema: './config.schema.json',
      runtime: { cancel_grace_ms: 300 },
      agents: { 'python-script': { concurrency: 3 } },
      // Quick retries, so a failed delivery settles within the test.
      notifications: { retry_schedule_ms: [50], timeout_ms: 2000 },
    },
  });
  client = await t.controlSession();
});

afterAll(async () => {
  await t.cleanup();
  await receiver.close();
});

const configFile = (): Record<string, unknown> => JSON.parse(readFileSync(join(t.dataDir, 'config.json'), 'utf8')) as Record<string, unknown>;
const patchAgent = (slug: string, body: unknown) => client.request<AgentInfo>('PATCH', `/api/agents/${slug}`, body);
/** Resolves once the task has `count` deliveries, none pending (checked after every attempt). */
const deliveriesSettled = (taskId: string, count: number): Promise<void> =>
  new Promise((resolve) => {
    const check = (): void => {
      const deliveries = t.host.deliveries.listForTask(taskId);
      if (deliveries.length === count && deliveries.every((d) => d.state !== 'pending')) {
        stop();
        resolve();
      }
    };
    const stop = t.host.notifier.onAttempt(check);
    check();
  });
const a2aCreate = (input: Record<string, unknown>) => t.request<Task>('POST', '/agents/echo/tasks', { input });

describe('agents', () => {
  it('lists every loaded agent with its card, settings and load, and the skipped plugins', async () => {
    const res = await client.get<AgentList>('/api/agents');
    expect(res.status).toBe(200);
    const echo = res.body.agents.find((agent) => agent.slug === 'echo')!;
    const card = (await t.request<AgentCard>('GET', '/agents/echo/agent-card.json')).body;
    expect(echo).toEqual({
      slug: 'echo',
      display_name: 'Echo',
      description: card.description,
      agent_id: card.agent_id,
      version: '1.0.0',
      source: 'builtin',
      dir: expect.stringContaining('echo'),
      enabled: true,
      concurrency: 4,
      manifest_concurrency: 4,
      rerun_safe: true,
      base_url: `${t.url}/agents/echo`,
      card_url: `${t.url}/agents/echo/agent-card.json`,
      card,
      running: 0,
      queued: 0,
    });
    expect(res.body.agents.find((agent) => agent.slug === 'python-script')).toMatchObject({ concurrency: 3, manifest_concurrency: 2 });
    expect(res.body.load_errors).toEqual(t.host.registry.errors());
  });

  it('disables an agent: saved to config.json with every other key kept, and the A2A server refuses it at once', async () => {
    const res = await patchAgent('echo', { enabled: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ slug: 'echo', enabled: false });
    expect(configFile()).toEqual({
      $schema: './config.schema.json',
      runtime: { cancel_grace_ms: 300 },
      agents: { 'python-script': { concurrency: 3 }, echo: { enabled: false } },
      notifications: { retry_schedule_ms: [50], timeout_ms: 2000 },
      server: { port: 0 },
      control: { port: 0 },
    });
    const refused = await a2aCreate({ message: 'x' });
    expect(refused.status).toBe(503);
    expect((refused.body as unknown as ErrorBody).error.code).toBe('AGENT_DISABLED');
    expect((await t.request<{ agents: AgentListing[] }>('GET', '/agents')).body.agents.map((a) => a.slug)).not.toContain('echo');
    expect((await client.request('POST', '/api/agents/echo/tasks', { input: { message: 'x' } })).status).toBe(503);

    expect((await patchAgent('echo', { enabled: true })).body.enabled).toBe(true);
    expect((await a2aCreate({ message: 'back' })).status).toBe(202);
  });

  it('applies a new concurrency at once: a queued task starts when the limit rises', async () => {
    await patchAgent('echo', { concurrency: 1 });
    const first = (await a2aCreate({ message: 'first', delay_ms: 60_000 })).body.task_id;
    await t.waitForStatus(first, 'WORKING');
    const second = (await a2aCreate({ message: 'second', delay_ms: 60_000 })).body.task_id;
    const info = (await client.get<AgentList>('/api/agents')).body.agents.find((agent) => agent.slug === 'echo')!;
    expect(info).toMatchObject({ concurrency: 1, running: 1, queued: 1 });
    expect(t.host.store.getRecord(second)!.task.status).toBe('SUBMITTED');

    const raised = await patchAgent('echo', { concurrency: 2 });
    expect(raised.body.concurrency).toBe(2);
    await t.waitForStatus(second, 'WORKING');
    expect((configFile()['agents'] as Record<string, unknown>)['echo']).toEqual({ enabled: true, concurrency: 2 });
    for (const id of [first, second]) await client.request('POST', `/api/tasks/${id}/cancel`);
  });

  it('keeps a webhook\'s credentials out of sight, keeps them on a masked edit, and removes them on null', async () => {
    const set = await patchAgent('echo', {
      notification_config: { endpoint_url: receiver.url, auth_header: 'Authorization: Bearer hook-secret', signing_secret: SECRET },
    });
    expect(set.status).toBe(200);
    expect(set.body.notification_config).toEqual({ endpoint_url: receiver.url, auth_header: 'Authorization: [redacted]' });
    expect(JSON.stringify(set.body)).not.toContain('hook-secret');
    expect(JSON.stringify(set.body)).not.toContain(SECRET);
    const saved = (configFile()['agents'] as Record<string, Record<string, unknown>>)['echo']!['notification_config'];
    expect(saved).toEqual({ endpoint_url: receiver.url, auth_header: 'Authorization: Bearer hook-secret', signing_secret: SECRET });

    // The UI sends back what it was shown: the stored header and secret stay.
    const moved = `${receiver.url}?v=2`;
    await patchAgent('echo', { notification_config: { endpoint_url: moved, auth_header: 'Authorization: [redacted]' } });
    expect(t.host.registry.get('echo')!.notificationConfig).toEqual({ endpoint_url: moved, auth_header: 'Authorization: Bearer hook-secret', signing_secret: SECRET });
    await patchAgent('echo', { notification_config: { endpoint_url: receiver.url, auth_header: 'Authorization: [redacted]' } });

    const unmasked = await patchAgent('python-script', { notification_config: { endpoint_url: receiver.url, auth_header: 'X-Key: [redacted]' } });
    expect(unmasked.status).toBe(400);
    const removed = await patchAgent('python-script', { notification_config: null });
    expect(removed.body.notification_config).toBeUndefined();
  });

  it('refuses a bad patch (400) or an unknown agent (404), changing nothing', async () => {
    const before = readFileSync(join(t.dataDir, 'config.json'), 'utf8');
    for (const body of [{}, { concurrency: 0 }, { concurrency: 65 }, { enabled: 'yes' }, { color: 'red' }, { notification_config: { endpoint_url: 'file:///etc/passwd' } }]) {
      expect((await patchAgent('echo', body)).status, JSON.stringify(body)).toBe(400);
    }
    const unknown = await patchAgent('no-such-agent', { enabled: false });
    expect(unknown.status).toBe(404);
    expect((unknown.body as unknown as ErrorBody).error.code).toBe('AGENT_NOT_FOUND');
    expect(readFileSync(join(t.dataDir, 'config.json'), 'utf8')).toBe(before);
  });

  it('answers 409 CONFIG_INVALID, writing and applying nothing, when config.json was broken by hand', async () => {
    const file = join(t.dataDir, 'config.json');
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, '{"agents": ');
    try {
      const res = await patchAgent('echo', { enabled: false });
      expect(res.status).toBe(409);
      expect((res.body as unknown as ErrorBody).error).toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringContaining('config.json') });
      expect(t.host.registry.get('echo')!.enabled).toBe(true);
      expect(readFileSync(file, 'utf8')).toBe('{"agents": ');
      expect((await client.get<ErrorBody>('/api/settings')).status).toBe(409);
    } finally {
      writeFileSync(file, good);
    }
  });
});

describe('webhook deliveries', () => {
  let taskId = '';

  beforeAll(async () => {
    taskId = (await a2aCreate({ message: 'notify me' })).body.task_id;
    await t.waitForStatus(taskId, 'COMPLETED');
    await deliveriesSettled(taskId, 3);
  });

  it('shows a task\'s deliveries in its detail, and all of them newest first in pages', async () => {
    const detail = (await client.get<TaskDetail>(`/api/tasks/${taskId}`)).body;
    expect(detail.deliveries.map((d) => d.status)).toEqual(['SUBMITTED', 'WORKING', 'COMPLETED']);
    for (const delivery of detail.deliveries) {
      expect(delivery).toMatchObject({ task_id: taskId, endpoint_url: receiver.url, state: 'delivered', attempts: 1, last_status_code: 204 });
      expect(delivery.webhook_id).toMatch(/^msg_/);
      expect(delivery.delivered_at).toEqual(expect.any(String));
      expect(JSON.stringify(delivery)).not.toContain('hook-secret');
    }
    const forTask = await client.get<DeliveryListPage>(`/api/deliveries?task=${taskId}`);
    expect(forTask.body.deliveries).toEqual([...detail.deliveries].reverse());

    const all = t.host.deliveries.list({ limit: 1000 }).map((d) => d.id);
    const ids: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.get<DeliveryListPage>(`/api/deliveries?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      ids.push(...page.body.deliveries.map((d) => d.id));
      cursor = page.body.next_cursor;
    } while (cursor !== undefined);
    expect(ids).toEqual(all);
    expect((await client.get<DeliveryListPage>('/api/deliveries?state=dead')).body.deliveries).toEqual([]);
  });

  it('lists a delivery\'s attempts and redelivers a delivered one', async () => {
    const delivery = (await client.get<DeliveryListPage>(`/api/deliveries?task=${taskId}`)).body.deliveries[0]!;
    const attempts = await client.get<{ attempts: DeliveryAttempt[] }>(`/api/deliveries/${delivery.id}/attempts`);
    expect(attempts.body.attempts).toEqual([{ attempt: 1, started_at: expect.any(String), duration_ms: expect.any(Number), status_code: 204 }]);

    const redelivered = await client.request<DeliverySummary>('POST', `/api/deliveries/${delivery.id}/redeliver`);
    expect(redelivered.status).toBe(200);
    expect(redelivered.body).toMatchObject({ id: delivery.id, state: 'pending' });
    await deliveriesSettled(taskId, 3);
    expect(receiver.received.filter((r) => r.headers['webhook-id'] === delivery.webhook_id)).toHaveLength(2);
    const after = await client.get<{ attempts: DeliveryAttempt[] }>(`/api/deliveries/${delivery.id}/attempts`);
    expect(after.body.attempts.map((a) => a.attempt)).toEqual([1, 2]);
  });

  it('answers 404 for an unknown delivery and 409 for one still pending', async () => {
    expect((await client.get<ErrorBody>('/api/deliveries/999999/attempts')).body.error.code).toBe('DELIVERY_NOT_FOUND');
    expect((await client.get('/api/deliveries/abc/attempts')).status).toBe(404);
    expect((await client.request<ErrorBody>('POST', '/api/deliveries/999999/redeliver')).status).toBe(404);
    receiver.setMode({ kind: 'hang' });
    try {
      const id = (await a2aCreate({ message: 'stuck' })).body.task_id;
      await receiver.waitFor(() => receiver.hanging() > 0, 'a hung attempt');
      const pending = t.host.deliveries.listForTask(id)[0]!;
      const res = await client.request<ErrorBody>('POST', `/api/deliveries/${pending.id}/redeliver`);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('INVALID_STATE');
    } finally {
      receiver.setMode({ kind: 'ok' });
      receiver.release();
    }
  });
});

describe('API tokens', () => {
  it('creates a token (201, its secret shown once), lists it without the secret, and revokes it', async () => {
    const created = await client.request<CreatedApiTokenInfo>('POST', '/api/tokens', { name: '  orchestrator  ' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ token_id: expect.any(String), name: 'orchestrator', created_at: expect.any(String), last_used_at: null, token: expect.stringMatching(/^ah_/) });
    const listed = await client.get<{ tokens: ApiTokenInfo[] }>('/api/tokens');
    expect(listed.body.tokens).toContainEqual({ token_id: created.body.token_id, name: 'orchestrator', created_at: created.body.created_at, last_used_at: null });
    expect(listed.text).not.toContain(created.body.token);
    expect(t.host.tokens.verify(created.body.token)).toBe(true);

    const revoked = await client.request('DELETE', `/api/tokens/${created.body.token_id}`);
    expect(revoked.status).toBe(204);
    expect(t.host.tokens.verify(created.body.token)).toBe(false);
    const again = await client.request<ErrorBody>('DELETE', `/api/tokens/${created.body.token_id}`);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('TOKEN_NOT_FOUND');
    expect((await client.request('POST', '/api/tokens', { name: '' })).status).toBe(400);
  });
});

describe('settings', () => {
  it('shows the saved server settings, retention and data folder', async () => {
    const res = await client.get<SettingsInfo>('/api/settings');
    expect(res.body).toEqual({
      server: { host: '127.0.0.1', port: 0, require_token: false, allowed_hosts: [], allowed_origins: [] },
      retention_days: 0,
      data_dir: t.dataDir,
      restart_required: false,
    });
  });

  it('applies allowed origins and the token requirement to the A2A server at once', async () => {
    const origin = 'https://orchestrator.example';
    expect((await t.request('GET', '/agents', undefined, { origin })).status).toBe(403);
    const patched = await client.request<SettingsInfo>('PATCH', '/api/settings', { server: { allowed_origins: [origin], require_token: true } });
    expect(patched.status).toBe(200);
    expect(patched.body.server).toMatchObject({ allowed_origins: [origin], require_token: true });
    expect(patched.body.restart_required).toBe(false);
    expect((await t.request('GET', '/agents', undefined, { origin })).status).toBe(401);
    const token = t.host.tokens.create('settings test').token;
    const allowed = await t.request('GET', '/agents', undefined, { origin, authorization: `Bearer ${token}` });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(origin);

    await client.request('PATCH', '/api/settings', { server: { allowed_origins: [], require_token: false } });
    expect((await t.request('GET', '/agents')).status).toBe(200);
    expect((await t.request('GET', '/agents', undefined, { origin })).status).toBe(403);
    expect(configFile()['server']).toEqual({ port: 0, allowed_origins: [], require_token: false });
  });

  it('saves a new bind address or port for the next start and says a restart is needed', async () => {
    const res = await client.request<SettingsInfo>('PATCH', '/api/settings', { server: { port: 7499 } });
    expect(res.body.server.port).toBe(7499);
    expect(res.body.restart_required).toBe(true);
    expect((await client.get<SettingsInfo>('/api/settings')).body.restart_required).toBe(true);
    expect((await t.request('GET', '/agents')).status).toBe(200);
    const back = await client.request<SettingsInfo>('PATCH', '/api/settings', { server: { port: 0 } });
    expect(back.body.restart_required).toBe(false);
  });

  it('refuses a bad patch (400)', async () => {
    for (const body of [{}, { retention_days: -1 }, { server: { port: 70000 } }, { server: { allowed_origins: ['not a url'] } }, { server: { body_limit: 5 } }, { theme: 'dark' }]) {
      expect((await client.request('PATCH', '/api/settings', body)).status, JSON.stringify(body)).toBe(400);
    }
  });
});
