import { afterEach, describe, expect, it } from 'vitest';
import { Harness, fixtureAgent, processGone } from './harness.js';

let h: Harness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('restart recovery', () => {
  it('fails tasks left WORKING with HOST_RESTARTED, runs SUBMITTED ones and keeps prompts answerable', async () => {
    h = new Harness();
    const healthy = h.add(fixtureAgent('healthy'));
    const asks = h.add(fixtureAgent('asks-twice'));
    // What a previous host run left behind in the database.
    const create = (agent: typeof healthy, input = {}): string =>
      h!.store.createTask({ agentSlug: agent.slug, agentId: agent.agentId, input }).task.task_id;
    const wasWorking = create(healthy);
    h.store.transition(wasWorking, 'WORKING');
    const wasQueued = create(healthy, { tag: 'queued' });
    const wasAsking = create(asks);
    h.store.transition(wasAsking, 'WORKING');
    h.store.requestInput(wasAsking, 'What is your name?', { type: 'object', required: ['name'] });

    h.runtime.start();
    expect(h.task(wasWorking).status).toBe('FAILED');
    expect(h.task(wasWorking).error?.code).toBe('HOST_RESTARTED');
    expect(h.task(wasWorking).error?.message).not.toBe('');
    expect(h.task(wasAsking).status).toBe('INPUT_REQUIRED');
    const done = await h.waitFor(wasQueued, ['COMPLETED', 'FAILED']);
    expect(done.status).toBe('COMPLETED');
    expect(done.output).toMatchObject({ echo: { tag: 'queued' } });

    // The answer resumes it by replay: the re-run gets the name and asks the next question.
    h.service.answer('asks-twice', wasAsking, { name: 'Patsy' });
    const next = await h.waitFor(wasAsking, (task) => task.status === 'INPUT_REQUIRED' && task.prompt === 'What is your quest?');
    expect(next.prompt_schema).toBeUndefined();
  });
});

describe('shutdown', () => {
  it('lets tasks finish within the grace, fails the rest with HOST_SHUTDOWN, kills their workers, keeps prompts', async () => {
    h = new Harness();
    h.runtime.start();
    h.add(fixtureAgent('ignores-cancel', { concurrency: 4 }));
    h.add(fixtureAgent('healthy'));
    h.add(fixtureAgent('infinite-loop'));
    h.add(fixtureAgent('asks-twice'));
    const stubborn = h.submit('ignores-cancel');
    const honours = h.submit('healthy', { delay_ms: 60_000 });
    const spinning = h.submit('infinite-loop');
    const asking = h.submit('asks-twice');
    await h.waitForLog(stubborn, (line) => line === 'waiting');
    await h.waitForLog(honours, (line) => line === 'started');
    await h.waitForLog(spinning, (line) => line === 'entering the loop');
    await h.waitFor(asking, 'INPUT_REQUIRED');
    // Started last, so it is still running when the shutdown begins, and done well within its grace.
    const finishes = h.submit('ignores-cancel', { wait_ms: 800 });
    await h.waitForLog(finishes, (line) => line === 'waiting');
    const pids = [stubborn, honours, spinning, asking, finishes].map((id) => h!.runtime.workerPid(id)!);
    expect(h.task(finishes).status).toBe('WORKING');

    await h.runtime.shutdown(3000);

    expect(h.task(finishes).status).toBe('COMPLETED');
    expect(h.task(finishes).output).toEqual({ finished: true });
    for (const id of [stubborn, honours, spinning]) {
      expect(h.task(id).status).toBe('FAILED');
      expect(h.task(id).error?.code).toBe('HOST_SHUTDOWN');
      expect(h.statusHistory(id)).toEqual(['SUBMITTED', 'WORKING', 'FAILED']);
    }
    expect(h.task(honours).error?.message).toMatch(/the agent stopped with/);
    expect(h.logLines(stubborn)).toContain('abort seen: the host is shutting down');
    expect(h.task(asking).status).toBe('INPUT_REQUIRED');
    expect(h.task(asking).prompt).toBe('What is your name?');
    for (const pid of pids) expect(processGone(pid)).toBe(true);
    expect(h.runtime.workerCount()).toBe(0);

    // Nothing starts any more.
    const late = h.submit('healthy');
    expect(h.task(late).status).toBe('SUBMITTED');
    expect(h.runtime.workerCount()).toBe(0);
    // A second call is the same shutdown.
    await h.runtime.shutdown();
  }, 60_000);
});
