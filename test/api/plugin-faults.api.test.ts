import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../build/main/shared/protocol.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

let t: TestHost;
beforeAll(async () => {
  t = await startTestHost({ config: { runtime: { cancel_grace_ms: 300 } } });
});
afterAll(async () => {
  await t.cleanup();
});

const create = async (slug: string, input: Record<string, unknown> = {}): Promise<Task> => {
  const res = await t.request<Task>('POST', `/agents/${slug}/tasks`, { input });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body;
};

function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

describe('a faulty plugin fails only its own task', () => {
  const faults: Array<[string, string]> = [
    ['throws', 'AGENT_ERROR'],
    ['process-exit', 'WORKER_EXITED'],
    ['heap-exhaust', 'WORKER_OUT_OF_MEMORY'],
    ['bad-output', 'OUTPUT_SCHEMA_VIOLATION'],
  ];
  for (const [slug, code] of faults) {
    it(`${slug} → FAILED ${code}, while a healthy task completes`, async () => {
      const faulty = await create(slug, { value: 1 });
      const healthy = await create('echo', { message: 'still here', delay_ms: 50 });
      const failed = await t.waitForStatus(faulty.task_id, 'FAILED', 30_000);
      expect(failed.error).toEqual({ code, message: expect.stringMatching(/\S/) });
      await t.waitForStatus(healthy.task_id, 'COMPLETED');
      expect((await t.request('GET', '/agents')).status).toBe(200);
    });
  }

  it('an agent stuck in a busy loop never blocks the host; cancel kills it after the grace period', async () => {
    const stuck = await create('infinite-loop', { value: 1 });
    await t.waitForStatus(stuck.task_id, 'WORKING');
    const pid = t.host.runtime.workerPid(stuck.task_id);
    expect(pid).toEqual(expect.any(Number));
    // The host answers and runs other tasks while the loop spins.
    for (let i = 0; i < 5; i++) expect((await t.request('GET', `/agents/infinite-loop/tasks/${stuck.task_id}`)).status).toBe(200);
    const healthy = await create('echo', { message: 'ok' });
    await t.waitForStatus(healthy.task_id, 'COMPLETED');

    const cancel = await t.request<Task>('POST', `/agents/infinite-loop/tasks/${stuck.task_id}/cancel`);
    expect(cancel.status).toBe(202);
    expect(cancel.body.status).toBe('CANCELLED');
    await expect.poll(() => processGone(pid!), { timeout: 10_000 }).toBe(true);
    expect((await t.request<Task>('GET', `/agents/infinite-loop/tasks/${stuck.task_id}`)).body.status).toBe('CANCELLED');
  });

  it('an agent that ignores its cancel signal is stopped hard', async () => {
    const task = await create('ignores-cancel', { value: 1 });
    await t.waitForStatus(task.task_id, 'WORKING');
    const pid = t.host.runtime.workerPid(task.task_id)!;
    const cancel = await t.request<Task>('POST', `/agents/ignores-cancel/tasks/${task.task_id}/cancel`);
    expect(cancel.body.status).toBe('CANCELLED');
    await expect.poll(() => processGone(pid), { timeout: 10_000 }).toBe(true);
    const final = (await t.request<Task>('GET', `/agents/ignores-cancel/tasks/${task.task_id}`)).body;
    expect(final.status).toBe('CANCELLED');
    expect(final.output).toBeUndefined();
  });
});
