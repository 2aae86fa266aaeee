import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Harness, fixtureAgent, inlineAgent, processGone, waitUntil } from './harness.js';

let h: Harness;

beforeEach(() => {
  h = new Harness();
  h.runtime.start();
});

afterEach(async () => {
  await h.close();
});

describe('a faulty plugin fails only its own task', () => {
  it('gives each fault its own error code while a healthy task completes', async () => {
    for (const name of ['throws', 'process-exit', 'heap-exhaust', 'bad-output', 'healthy']) h.add(fixtureAgent(name, { concurrency: 4 }));
    const coded = h.submit('throws', { code: 'CUSTOM_FAILURE', message: 'custom failure' });
    const uncoded = h.submit('throws', { message: 'no code here' });
    const badCode = h.submit('throws', { code: 'not-a-valid-code' });
    const numericCode = h.submit('throws', { code: 42 });
    const thrownString = h.submit('throws', { throw_string: true });
    const exits = h.submit('process-exit');
    const oom = h.submit('heap-exhaust');
    const badOutput = h.submit('bad-output');
    const healthy = h.submit('healthy', { delay_ms: 50, tag: 'fine' });

    const terminal = ['COMPLETED', 'FAILED', 'CANCELLED'] as const;
    const [t1, t2, t3, t4, t5, t6, t7, t8, t9] = await Promise.all(
      [coded, uncoded, badCode, numericCode, thrownString, exits, oom, badOutput, healthy].map((id) => h.waitFor(id, [...terminal])),
    );

    expect(t1!.error).toEqual({ code: 'CUSTOM_FAILURE', message: 'custom failure' });
    expect(t2!.error).toEqual({ code: 'AGENT_ERROR', message: 'no code here' });
    expect(t3!.error?.code).toBe('AGENT_ERROR');
    expect(t4!.error?.code).toBe('AGENT_ERROR');
    expect(t5!.error).toEqual({ code: 'AGENT_ERROR', message: 'a plain string was thrown' });
    expect(t6!.error).toEqual({ code: 'WORKER_EXITED', message: 'worker exited with code 3' });
    expect(t7!.status).toBe('FAILED');
    expect(t7!.error?.code).toBe('WORKER_OUT_OF_MEMORY');
    expect(t7!.error?.message).toContain('64 MiB');
    expect(t8!.error?.code).toBe('OUTPUT_SCHEMA_VIOLATION');
    expect(t8!.error?.message).toContain('/count');
    expect(t9!.status).toBe('COMPLETED');
    expect(t9!.output).toMatchObject({ echo: { delay_ms: 50, tag: 'fine' } });
    for (const task of [t1, t2, t3, t4, t5, t6, t7, t8]) {
      expect(task!.status).toBe('FAILED');
      expect(task!.error?.message).not.toBe('');
    }
    // The thrown error's stack reaches the task log.
    expect(h.logLines(coded, 'ERROR').some((line) => line.includes('custom failure'))).toBe(true);
  });

  it('keeps the host responsive while a plugin spins in an endless synchronous loop', async () => {
    h.add(fixtureAgent('infinite-loop'));
    h.add(fixtureAgent('healthy'));
    const looping = h.submit('infinite-loop');
    await h.waitForLog(looping, (line) => line === 'entering the loop');

    // Timers and setImmediate keep firing on the host's loop while the plugin spins.
    let ticks = 0;
    const interval = setInterval(() => (ticks += 1), 5);
    await waitUntil(() => ticks >= 10, 'ten interval ticks');
    clearInterval(interval);
    for (let i = 0; i < 100; i += 1) await new Promise((resolve) => setImmediate(resolve));

    const healthy = h.submit('healthy', { tag: 'meanwhile' });
    const done = await h.waitFor(healthy, ['COMPLETED', 'FAILED']);
    expect(done.status).toBe('COMPLETED');
    expect(h.task(looping).status).toBe('WORKING');

    const pid = h.runtime.workerPid(looping)!;
    expect(pid).toBeGreaterThan(0);
    expect(h.service.cancel('infinite-loop', looping).status).toBe('CANCELLED');
    await waitUntil(() => processGone(pid), 'the spinning worker is killed');
    expect(h.statusHistory(looping)).toEqual(['SUBMITTED', 'WORKING', 'CANCELLED']);
  });

  it('fails a task that exceeds timeout_ms with TIMEOUT and kills a worker that cannot stop', async () => {
    h.add(fixtureAgent('infinite-loop', { manifest: { timeout_ms: 400 } }));
    const id = h.submit('infinite-loop');
    await h.waitFor(id, 'WORKING');
    const pid = h.runtime.workerPid(id)!;
    const failed = await h.waitFor(id, 'FAILED');
    expect(failed.error).toEqual({ code: 'TIMEOUT', message: 'the task ran longer than its time limit of 400 ms' });
    await waitUntil(() => processGone(pid), 'the timed-out worker is killed');
    expect(h.runtime.runningCount('infinite-loop')).toBe(0);
    expect(h.statusHistory(id)).toEqual(['SUBMITTED', 'WORKING', 'FAILED']);
  });

  it('reports a worker killed from outside as WORKER_CRASHED', async () => {
    h.add(fixtureAgent('ignores-cancel'));
    const id = h.submit('ignores-cancel');
    await h.waitForLog(id, (line) => line === 'waiting');
    process.kill(h.runtime.workerPid(id)!, 'SIGTERM');
    const failed = await h.waitFor(id, 'FAILED');
    expect(failed.error).toEqual({ code: 'WORKER_CRASHED', message: 'worker was killed by signal SIGTERM' });
  });

  it('fails with WORKER_START_FAILED when the process cannot start or the entry cannot load', async () => {
    h.add(fixtureAgent('healthy', { manifest: { slug: 'no-folder' }, dir: path.join(h.dir, 'does-not-exist') }));
    h.add(fixtureAgent('healthy', { manifest: { slug: 'no-entry' }, entryPath: path.join(h.dir, 'missing.js') }));
    h.add(inlineAgent(h.dir, 'not-a-function', 'export default 42;\n'));
    h.add(inlineAgent(h.dir, 'throws-on-import', "throw new Error('import exploded');\n"));
    const ids = ['no-folder', 'no-entry', 'not-a-function', 'throws-on-import'].map((slug) => h.submit(slug));
    const tasks = await Promise.all(ids.map((id) => h.waitFor(id, 'FAILED')));
    for (const task of tasks) expect(task.error?.code).toBe('WORKER_START_FAILED');
    expect(tasks[0]!.error?.message).toMatch(/could not start the worker process/);
    expect(tasks[1]!.error?.message).toMatch(/could not load the plugin/);
    expect(tasks[2]!.error?.message).toMatch(/no default export function/);
    expect(tasks[3]!.error?.message).toMatch(/import exploded/);
  });

  it('fails the task of a plugin that forges IPC messages, and stops its worker', async () => {
    h.add(inlineAgent(h.dir, 'forger', `export default async function run() {
  process.send({ type: 'request-input', requestId: -1, prompt: 42 });
  await new Promise((resolve) => setTimeout(resolve, 60_000));
  return {};
}
`));
    const id = h.submit('forger');
    await h.waitFor(id, 'WORKING');
    const pid = h.runtime.workerPid(id)!;
    const failed = await h.waitFor(id, 'FAILED');
    expect(failed.error?.code).toBe('AGENT_ERROR');
    expect(failed.error?.message).toMatch(/invalid message/);
    await waitUntil(() => processGone(pid), 'the forging worker is killed');
    expect(h.logRecords.some((record) => record.msg.includes('broke the IPC protocol'))).toBe(true);
  });

  it('requires a JSON object as output; returning nothing completes with {}', async () => {
    h.add(inlineAgent(h.dir, 'returns-string', "export default () => 'just a string';\n"));
    h.add(inlineAgent(h.dir, 'returns-nothing', 'export default async () => {};\n'));
    h.add(inlineAgent(h.dir, 'returns-bigint', 'export default () => ({ n: 1n });\n'));
    const [str, nothing, big] = ['returns-string', 'returns-nothing', 'returns-bigint'].map((slug) => h.submit(slug));
    const failed = await h.waitFor(str!, ['FAILED', 'COMPLETED']);
    expect(failed.error).toEqual({
      code: 'OUTPUT_SCHEMA_VIOLATION',
      message: "the agent returned a string, but a task's output must be a JSON object",
    });
    const completed = await h.waitFor(nothing!, ['FAILED', 'COMPLETED']);
    expect(completed.status).toBe('COMPLETED');
    expect(completed.output).toEqual({});
    const bigint = await h.waitFor(big!, ['FAILED', 'COMPLETED']);
    expect(bigint.error?.code).toBe('AGENT_ERROR');
    expect(bigint.error?.message).toMatch(/cannot be serialised as JSON/);
  });
});
