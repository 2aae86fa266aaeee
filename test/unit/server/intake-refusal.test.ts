/**
 * The A2A create while intake is paused: 503 INTAKE_PAUSED with Retry-After, before the body is
 * read; a retry of a create accepted before the pause still gets its task; shutting down and a
 * disabled agent take precedence. Real server and SQLite; intake is a plain switch here (its own
 * persistence is tested with Intake).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Task } from '../../../build/main/shared/protocol.js';
import { errorOf, startServer, type ServerFixture } from './server-fixture.js';

let s: ServerFixture;
const intake = { paused: false };
beforeAll(async () => {
  s = await startServer({ intake: { isPaused: () => intake.paused } });
});
afterAll(async () => {
  await s.close();
});
beforeEach(() => {
  intake.paused = false;
  s.shuttingDown.value = false;
});

const countTasks = (): number => (s.db.prepare('SELECT COUNT(*) AS n FROM tasks').get() as { n: number }).n;

describe('POST {base}/tasks while intake is paused', () => {
  it('answers 503 INTAKE_PAUSED with Retry-After and stores nothing', async () => {
    const before = countTasks();
    const queuedBefore = s.scheduler.queued.length;
    intake.paused = true;
    const res = await s.postJson('/agents/echo/tasks', { input: { message: 'hello' } });
    expect(res.status).toBe(503);
    expect(errorOf(res)).toEqual({ code: 'INTAKE_PAUSED', message: expect.stringContaining('paused') });
    expect(res.headers['retry-after']).toBe('60');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(countTasks()).toBe(before);
    expect(s.scheduler.queued.length).toBe(queuedBefore);
  });

  it('refuses before reading the body: a malformed body is still a 503', async () => {
    intake.paused = true;
    const res = await s.raw('/agents/echo/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input": ' });
    expect(res.status).toBe(503);
    expect(errorOf(res).code).toBe('INTAKE_PAUSED');
  });

  it('returns a task accepted before the pause to a retry with its Idempotency-Key; refuses any other create', async () => {
    const key = `before-pause-${Date.now()}`;
    const first = await s.postJson('/agents/echo/tasks', { input: { message: 'once' } }, { 'idempotency-key': key });
    expect(first.status).toBe(202);
    const created = first.json as Task;
    const queuedBefore = s.scheduler.queued.length;
    const before = countTasks();

    intake.paused = true;
    const retry = await s.postJson('/agents/echo/tasks', { input: { message: 'once' } }, { 'idempotency-key': key });
    expect(retry.status).toBe(202);
    expect((retry.json as Task).task_id).toBe(created.task_id);

    const reused = await s.postJson('/agents/echo/tasks', { input: { message: 'different' } }, { 'idempotency-key': key });
    expect(reused.status).toBe(409);
    expect(errorOf(reused).code).toBe('IDEMPOTENCY_KEY_REUSED');

    const fresh = await s.postJson('/agents/echo/tasks', { input: { message: 'once' } }, { 'idempotency-key': `${key}-new` });
    expect(fresh.status).toBe(503);
    expect(errorOf(fresh).code).toBe('INTAKE_PAUSED');
    expect(fresh.headers['retry-after']).toBe('60');

    // The same key names another task on another agent: keys are per agent.
    const otherAgent = await s.postJson('/agents/other/tasks', { input: { message: 'once' } }, { 'idempotency-key': key });
    expect(otherAgent.status).toBe(503);

    expect(countTasks()).toBe(before);
    expect(s.scheduler.queued.length).toBe(queuedBefore);
  });

  it('lets shutting down win over paused, and a disabled or unknown agent answer as always', async () => {
    intake.paused = true;
    s.shuttingDown.value = true;
    const stopping = await s.postJson('/agents/echo/tasks', { input: { message: 'x' } });
    expect(stopping.status).toBe(503);
    expect(errorOf(stopping).code).toBe('SHUTTING_DOWN');
    expect(stopping.headers['retry-after']).toBeUndefined();
    s.shuttingDown.value = false;

    const disabled = await s.postJson('/agents/off/tasks', { input: { message: 'x' } });
    expect(errorOf(disabled).code).toBe('AGENT_DISABLED');
    const unknown = await s.postJson('/agents/nobody/tasks', { input: { message: 'x' } });
    expect(unknown.status).toBe(404);
  });

  it('keeps reads, answers and cancels going', async () => {
    const waiting = s.taskIn('echo', 'INPUT_REQUIRED');
    const queued = s.taskIn('echo', 'SUBMITTED');
    intake.paused = true;

    const read = await s.raw(`/agents/echo/tasks/${waiting.task_id}`);
    expect(read.status).toBe(200);
    const answered = await s.postJson(`/agents/echo/tasks/${waiting.task_id}/input`, { input: { name: 'Ada' } });
    expect(answered.status).toBe(200);
    expect((answered.json as Task).status).toBe('WORKING');
    const cancelled = await s.raw(`/agents/echo/tasks/${queued.task_id}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(202);
    expect((cancelled.json as Task).status).toBe('CANCELLED');
  });

  it('creates again once resumed', async () => {
    intake.paused = true;
    expect((await s.postJson('/agents/echo/tasks', { input: { message: 'x' } })).status).toBe(503);
    intake.paused = false;
    expect((await s.postJson('/agents/echo/tasks', { input: { message: 'x' } })).status).toBe(202);
  });
});
