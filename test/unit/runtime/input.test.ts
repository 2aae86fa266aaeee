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

const runStarts = (id: string): string[] => h.logLines(id).filter((line) => line.startsWith('run started in '));

describe('prompts and answers', () => {
  it('goes INPUT_REQUIRED → answer → WORKING → COMPLETED with the live worker', async () => {
    h.add(fixtureAgent('asks-twice'));
    const id = h.submit('asks-twice');
    const asking = await h.waitFor(id, 'INPUT_REQUIRED');
    expect(asking.prompt).toBe('What is your name?');
    expect(asking.prompt_schema).toMatchObject({ required: ['name'] });
    const pid = h.runtime.workerPid(id);

    expect(h.service.answer('asks-twice', id, { name: 'Arthur' }).status).toBe('WORKING');
    const second = await h.waitFor(id, 'INPUT_REQUIRED');
    expect(second.prompt).toBe('What is your quest?');
    expect(second.prompt_schema).toBeUndefined();
    expect(h.runtime.workerPid(id)).toBe(pid);
    h.service.answer('asks-twice', id, { quest: 'the grail' });

    const done = await h.waitFor(id, ['COMPLETED', 'FAILED']);
    expect(done.status).toBe('COMPLETED');
    expect(done.output).toEqual({ first: { name: 'Arthur' }, second: { quest: 'the grail' }, pid });
    expect(runStarts(id)).toHaveLength(1);
    expect(h.statusHistory(id)).toEqual(['SUBMITTED', 'WORKING', 'INPUT_REQUIRED', 'WORKING', 'INPUT_REQUIRED', 'WORKING', 'COMPLETED']);
    expect(h.events(id).filter((e) => e.kind === 'prompt')).toHaveLength(2);
  });

  it('resumes a rerun_safe task after a restart by replaying the answers given so far', async () => {
    h.add(fixtureAgent('asks-twice'));
    const id = h.submit('asks-twice');
    await h.waitFor(id, 'INPUT_REQUIRED');
    h.service.answer('asks-twice', id, { name: 'Robin' });
    await h.waitFor(id, (task) => task.status === 'INPUT_REQUIRED' && task.prompt === 'What is your quest?');
    const oldPid = h.runtime.workerPid(id)!;

    await h.restart(2000);
    expect(processGone(oldPid)).toBe(true);
    expect(h.task(id).status).toBe('INPUT_REQUIRED');
    expect(h.task(id).prompt).toBe('What is your quest?');

    h.runtime.start();
    expect(h.task(id).status).toBe('INPUT_REQUIRED');
    h.service.answer('asks-twice', id, { quest: 'to seek the grail' });
    const done = await h.waitFor(id, ['COMPLETED', 'FAILED']);
    expect(done.status).toBe('COMPLETED');
    expect(done.output).toMatchObject({ first: { name: 'Robin' }, second: { quest: 'to seek the grail' } });
    expect(done.output!.pid).not.toBe(oldPid);
    // Two runs: the original and the replay; the replay asked nothing (no third prompt event).
    expect(runStarts(id)).toHaveLength(2);
    expect(h.events(id).filter((e) => e.kind === 'prompt')).toHaveLength(2);
  });

  it('replays the answers when the idle worker died without a restart', async () => {
    h.add(fixtureAgent('asks-twice'));
    const id = h.submit('asks-twice');
    await h.waitFor(id, 'INPUT_REQUIRED');
    const pid = h.runtime.workerPid(id)!;
    process.kill(pid, 'SIGKILL');
    await waitUntil(() => h.runtime.workerCount() === 0, 'the dead worker is noticed');
    // INPUT_REQUIRED cannot move to FAILED: the prompt stays answerable.
    expect(h.task(id).status).toBe('INPUT_REQUIRED');
    h.service.answer('asks-twice', id, { name: 'Galahad' });
    await h.waitFor(id, (task) => task.status === 'INPUT_REQUIRED' && task.prompt === 'What is your quest?');
    h.service.answer('asks-twice', id, { quest: 'grail' });
    const done = await h.waitFor(id, ['COMPLETED', 'FAILED']);
    expect(done.output).toMatchObject({ first: { name: 'Galahad' }, second: { quest: 'grail' } });
  });

  it('fails with NOT_RESUMABLE when the worker is gone and the agent is not rerun_safe', async () => {
    h.add(fixtureAgent('asks-twice', { manifest: { rerun_safe: false } }));
    const id = h.submit('asks-twice');
    await h.waitFor(id, 'INPUT_REQUIRED');
    await h.restart(2000);
    h.runtime.start();
    h.service.answer('asks-twice', id, { name: 'Lancelot' });
    const failed = await h.waitFor(id, 'FAILED');
    expect(failed.error?.code).toBe('NOT_RESUMABLE');
    expect(failed.error?.message).toMatch(/not marked rerun_safe/);
  });

  it('fails an answered task whose agent is no longer loaded with AGENT_UNAVAILABLE', async () => {
    h.add(fixtureAgent('asks-twice'));
    const id = h.submit('asks-twice');
    await h.waitFor(id, 'INPUT_REQUIRED');
    await h.restart(2000);
    h.agents.remove('asks-twice');
    h.runtime.start();
    h.service.answer('asks-twice', id, { name: 'Lancelot' });
    const failed = await h.waitFor(id, 'FAILED');
    expect(failed.error?.code).toBe('AGENT_UNAVAILABLE');
  });

  it('does not count time spent waiting for an answer against timeout_ms', async () => {
    h.add(fixtureAgent('asks-twice', { manifest: { timeout_ms: 2000 } }));
    const id = h.submit('asks-twice');
    await h.waitFor(id, 'INPUT_REQUIRED');
    // Longer than the whole time limit: only running time counts.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(h.task(id).status).toBe('INPUT_REQUIRED');
    h.service.answer('asks-twice', id, { name: 'Bedevere' });
    await h.waitFor(id, (task) => task.status === 'INPUT_REQUIRED' && task.prompt === 'What is your quest?');
    h.service.answer('asks-twice', id, { quest: 'grail' });
    expect((await h.waitFor(id, ['COMPLETED', 'FAILED'])).status).toBe('COMPLETED');
  });

  it('cancels a task waiting for input; the worker sees its prompt rejected and exits', async () => {
    h.add(fixtureAgent('asks-twice'));
    const id = h.submit('asks-twice');
    await h.waitFor(id, 'INPUT_REQUIRED');
    const pid = h.runtime.workerPid(id)!;
    expect(h.service.cancel('asks-twice', id).status).toBe('CANCELLED');
    await waitUntil(() => processGone(pid), 'the worker exits');
    expect(h.statusHistory(id)).toEqual(['SUBMITTED', 'WORKING', 'INPUT_REQUIRED', 'CANCELLED']);
  });

  it('rejects requestInput with an invalid schema inside the plugin, without touching the task status', async () => {
    h.add(inlineAgent(h.dir, 'bad-prompt-schema', `export default async function run(_input, ctx) {
  try {
    await ctx.requestInput('Pick one', { type: 'no-such-type' });
    return { asked: true };
  } catch (err) {
    return { refused: err.message };
  }
}
`));
    const id = h.submit('bad-prompt-schema');
    const done = await h.waitFor(id, ['COMPLETED', 'FAILED']);
    expect(done.output?.refused).toMatch(/schema is invalid/);
    expect(h.statusHistory(id)).toEqual(['SUBMITTED', 'WORKING', 'COMPLETED']);
  });
});
