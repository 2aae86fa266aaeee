/**
 * Pausing intake against a real host (real config.json, SQLite, echo workers): the control API's
 * `/api/intake`, the A2A create and try-it refused with 503 INTAKE_PAUSED while everything else
 * goes on, the `changed: intake` notice, RunningHost.intake, and a pause kept across a restart.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHost } from '../../build/main/core/host.js';
import { createLogger } from '../../build/main/core/logger.js';
import type { IntakeState } from '../../build/main/shared/control-api.js';
import type { ErrorBody, Task } from '../../build/main/shared/protocol.js';
import { ControlClient } from '../support/control-client.js';
import { fetchJson } from '../support/fetch-json.js';
import { openRawStream, type RawStream } from '../support/sse-clients.js';
import { FIXTURE_PLUGINS, ISO_TIMESTAMP, startTestHost, type TestHost } from '../support/test-host.js';

let t: TestHost;
let client: ControlClient;
const streams: RawStream[] = [];

beforeAll(async () => {
  // One echo task at a time, so a task can wait in the queue behind another.
  t = await startTestHost({ config: { runtime: { cancel_grace_ms: 300 }, agents: { echo: { concurrency: 1 } } } });
  client = await t.controlSession();
});

afterAll(async () => {
  for (const stream of streams) stream.close();
  await t.cleanup();
});

afterEach(() => {
  // Every test starts accepting, whatever it left behind.
  t.host.intake.setPaused(false);
});

const configText = (): string => readFileSync(join(t.dataDir, 'config.json'), 'utf8');
const savedIntake = (): unknown => (JSON.parse(configText()) as Record<string, unknown>)['intake'];
const countTasks = (): number => (t.host.db.prepare('SELECT COUNT(*) AS n FROM tasks').get() as { n: number }).n;
const putIntake = (body: unknown, headers?: Record<string, string>) => client.request<IntakeState>('PUT', '/api/intake', body, headers);
const a2aCreate = (input: Record<string, unknown>, headers?: Record<string, string>) => t.request<Task>('POST', '/agents/echo/tasks', { input }, headers);
const errorOf = (res: { body: unknown }): ErrorBody['error'] => (res.body as ErrorBody).error;

async function openEvents(): Promise<RawStream> {
  const stream = await openRawStream(t.controlUrl, '/api/events', { cookie: client.cookie });
  streams.push(stream);
  expect(stream.status).toBe(200);
  await stream.waitForFrame((frame) => frame.get('id') !== undefined);
  return stream;
}
const intakeNotices = (stream: RawStream): number =>
  stream.frames.filter((frame) => frame.get('event') === 'changed' && frame.get('data') === JSON.stringify({ type: 'changed', what: 'intake' })).length;

describe('/api/intake', () => {
  it('accepts at start', async () => {
    const res = await client.get<IntakeState>('/api/intake');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ paused: false });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('pauses: saved to config.json, announced as `changed: intake`, and new A2A tasks get 503 with Retry-After, nothing stored', async () => {
    const stream = await openEvents();
    const res = await putIntake({ paused: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ paused: true, paused_at: expect.stringMatching(ISO_TIMESTAMP) });
    expect(savedIntake()).toEqual(res.body);
    expect((await client.get<IntakeState>('/api/intake')).body).toEqual(res.body);
    const notice = await stream.waitForFrame((frame) => frame.get('event') === 'changed' && frame.get('data')?.includes('"intake"') === true);
    expect(notice.get('id')).toBeUndefined();

    const before = countTasks();
    const refused = await a2aCreate({ message: 'while paused' });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ error: { code: 'INTAKE_PAUSED', message: expect.stringContaining('paused') } });
    expect(refused.headers.get('retry-after')).toBe('60');
    const keyed = await a2aCreate({ message: 'while paused' }, { 'Idempotency-Key': `new-${Date.now()}` });
    expect(keyed.status).toBe(503);
    expect(errorOf(keyed).code).toBe('INTAKE_PAUSED');
    expect(countTasks()).toBe(before);
  });

  it('refuses try-it the same way while paused', async () => {
    await putIntake({ paused: true });
    const before = countTasks();
    const res = await client.request<Task>('POST', '/api/agents/echo/tasks', { input: { message: 'try' } });
    expect(res.status).toBe(503);
    expect(errorOf(res).code).toBe('INTAKE_PAUSED');
    expect(res.headers.get('retry-after')).toBe('60');
    expect(countTasks()).toBe(before);
  });

  it('lets running and queued tasks, answers, cancels, reads and a retried create go on while paused', async () => {
    const long = (await a2aCreate({ message: 'long', delay_ms: 60_000 })).body.task_id;
    await t.waitForStatus(long, 'WORKING');
    const asking = (await a2aCreate({ message: 'asks', ask: 'What is your name?' })).body.task_id;
    const key = `accepted-${Date.now()}`;
    const keyed = await a2aCreate({ message: 'keyed' }, { 'Idempotency-Key': key });
    expect(keyed.status).toBe(202);
    // Both wait in the queue behind `long` (concurrency 1).
    expect(t.host.store.getRecord(asking)!.task.status).toBe('SUBMITTED');

    expect((await putIntake({ paused: true })).body.paused).toBe(true);

    const retried = await a2aCreate({ message: 'keyed' }, { 'Idempotency-Key': key });
    expect(retried.status).toBe(202);
    expect(retried.body.task_id).toBe(keyed.body.task_id);
    const reused = await a2aCreate({ message: 'other body' }, { 'Idempotency-Key': key });
    expect(reused.status).toBe(409);
    expect(errorOf(reused).code).toBe('IDEMPOTENCY_KEY_REUSED');

    const cancelled = await t.request<Task>('POST', `/agents/echo/tasks/${long}/cancel`);
    expect(cancelled.status).toBe(202);
    expect(cancelled.body.status).toBe('CANCELLED');
    // The queue moves on: the next task starts and asks.
    const waiting = await t.waitForStatus(asking, 'INPUT_REQUIRED');
    expect(waiting.prompt).toBe('What is your name?');
    expect((await t.request<Task>('GET', `/agents/echo/tasks/${asking}`)).body.status).toBe('INPUT_REQUIRED');
    const answered = await t.request<Task>('POST', `/agents/echo/tasks/${asking}/input`, { input: { name: 'Ada' } });
    expect(answered.status).toBe(200);
    expect((await t.waitForStatus(asking, 'COMPLETED')).output).toEqual({ message: 'asks', answer: { name: 'Ada' } });
    await t.waitForStatus(keyed.body.task_id, 'COMPLETED');

    // The desk's answer and cancel too.
    expect((await putIntake({ paused: false })).body.paused).toBe(false);
    const deskAsk = (await a2aCreate({ message: 'desk', ask: 'Colour?' })).body.task_id;
    const deskCancel = (await a2aCreate({ message: 'desk', delay_ms: 60_000 })).body.task_id;
    await t.waitForStatus(deskAsk, 'INPUT_REQUIRED');
    await putIntake({ paused: true });
    expect((await client.request<Task>('POST', `/api/tasks/${deskCancel}/cancel`)).body.status).toBe('CANCELLED');
    expect((await client.request<Task>('POST', `/api/tasks/${deskAsk}/answer`, { input: { colour: 'blue' } })).status).toBe(200);
    await t.waitForStatus(deskAsk, 'COMPLETED');
  });

  it('resumes: saved, announced, and creates work again', async () => {
    await putIntake({ paused: true });
    const stream = await openEvents();
    const res = await putIntake({ paused: false });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ paused: false });
    expect(savedIntake()).toEqual({ paused: false });
    await stream.waitForFrame((frame) => frame.get('event') === 'changed' && frame.get('data')?.includes('"intake"') === true);
    const created = await a2aCreate({ message: 'after resume' });
    expect(created.status).toBe(202);
    await t.waitForStatus(created.body.task_id, 'COMPLETED');
    expect((await client.request<Task>('POST', '/api/agents/echo/tasks', { input: { message: 'try' } })).status).toBe(202);
  });

  it('changes nothing when put to the state it is in', async () => {
    const paused = (await putIntake({ paused: true })).body;
    const text = configText();
    const again = await putIntake({ paused: true });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(paused);
    expect(configText()).toBe(text);
  });

  it('refuses a body that is not exactly {paused: boolean} with a 400, changing nothing', async () => {
    const text = configText();
    const bodies: unknown[] = [{}, { paused: 'yes' }, { paused: 1 }, { paused: null }, { paused: true, paused_at: '2026-01-05T10:00:00.000Z' }, { pause: true }, [], 'true', '"paused"'];
    for (const body of bodies) {
      const res = await putIntake(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(errorOf(res).code, JSON.stringify(body)).toBe('BAD_REQUEST');
      expect(Object.keys(res.body as object)).toEqual(['error']);
    }
    const malformed = await putIntake('{"paused": ');
    expect(malformed.status).toBe(400);
    expect(errorOf(malformed).code).toBe('MALFORMED_JSON');
    const noBody = await client.request('PUT', '/api/intake');
    expect(noBody.status).toBe(415);
    const text2 = await putIntake('{"paused": true}', { 'content-type': 'text/plain' });
    expect(text2.status).toBe(415);
    expect(configText()).toBe(text);
    expect(t.host.intake.state()).toEqual({ paused: false });
  });

  it('needs a session, and the page\'s Origin for a change', async () => {
    expect((await fetchJson('GET', `${t.controlUrl}/api/intake`)).status).toBe(401);
    expect((await fetchJson('PUT', `${t.controlUrl}/api/intake`, { paused: true }, { cookie: client.cookie })).status).toBe(403);
    expect(t.host.intake.state().paused).toBe(false);
  });

  it('answers 409 CONFIG_INVALID and stays accepting when config.json was broken by hand', async () => {
    const file = join(t.dataDir, 'config.json');
    const good = configText();
    writeFileSync(file, '{"intake": ');
    try {
      const res = await putIntake({ paused: true });
      expect(res.status).toBe(409);
      expect(errorOf(res)).toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringContaining('config.json') });
      expect(readFileSync(file, 'utf8')).toBe('{"intake": ');
      expect(t.host.intake.state()).toEqual({ paused: false });
      expect((await a2aCreate({ message: 'still open' })).status).toBe(202);
    } finally {
      writeFileSync(file, good);
    }
  });
});

describe('RunningHost.intake (the tray)', () => {
  it('pauses and resumes like the API, telling onChange listeners and the event stream', async () => {
    const stream = await openEvents();
    const heard: IntakeState[] = [];
    const stop = t.host.intake.onChange((state) => heard.push(state));
    t.host.intake.onChange(() => {
      throw new Error('a broken listener');
    });

    const paused = t.host.intake.setPaused(true);
    expect(paused).toEqual({ paused: true, paused_at: expect.stringMatching(ISO_TIMESTAMP) });
    expect(t.host.intake.state()).toEqual(paused);
    expect((await client.get<IntakeState>('/api/intake')).body).toEqual(paused);
    expect((await a2aCreate({ message: 'tray paused' })).status).toBe(503);
    expect(t.host.intake.setPaused(true)).toEqual(paused);
    await stream.waitForFrame(() => intakeNotices(stream) >= 1);

    // A change through the API reaches the tray too. Notices are at most one per 250 ms, but one
    // always follows the last change.
    const noticesBefore = intakeNotices(stream);
    await putIntake({ paused: false });
    expect(heard).toEqual([paused, { paused: false }]);
    await stream.waitForFrame(() => intakeNotices(stream) > noticesBefore);
    stop();
    t.host.intake.setPaused(true);
    expect(heard).toHaveLength(2);
  });
});

describe('restart', () => {
  it('keeps the pause, with its time, across a restart on the same data folder', async () => {
    const { dataDir } = t;
    const paused = (await putIntake({ paused: true })).body;
    await t.stop();

    const host = await startHost({ dataDir, pluginDirs: [FIXTURE_PLUGINS], logger: createLogger('silent') });
    try {
      expect(host.intake.state()).toEqual(paused);
      const restarted = await ControlClient.signIn(host.controlUrl, host.mintSessionToken());
      expect((await restarted.get<IntakeState>('/api/intake')).body).toEqual(paused);
      const refused = await fetchJson('POST', `${host.url}/agents/echo/tasks`, { input: { message: 'after restart' } });
      expect(refused.status).toBe(503);
      expect(errorOf(refused).code).toBe('INTAKE_PAUSED');

      expect((await restarted.request<IntakeState>('PUT', '/api/intake', { paused: false })).body).toEqual({ paused: false });
      expect((await fetchJson('POST', `${host.url}/agents/echo/tasks`, { input: { message: 'resumed' } })).status).toBe(202);
    } finally {
      await host.close();
    }
  });
});
