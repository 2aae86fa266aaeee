import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Task } from '../../../build/main/shared/protocol.js';
import { Harness, fixtureAgent, waitUntil } from './harness.js';

let h: Harness;

beforeEach(() => {
  h = new Harness();
});

afterEach(async () => {
  await h.close();
});

describe('scheduling', () => {
  it('runs at most `concurrency` tasks of an agent at once and starts queued ones in arrival order', async () => {
    h.runtime.start();
    h.add(fixtureAgent('healthy', { concurrency: 2 }));
    const started: string[] = [];
    let working = 0;
    let maxWorking = 0;
    let maxSlots = 0;
    const off = h.store.onEvent((event) => {
      if (event.kind !== 'status') return;
      const status = (event.data as Task).status;
      if (status === 'WORKING') {
        started.push(event.task_id);
        working += 1;
        maxWorking = Math.max(maxWorking, working);
        maxSlots = Math.max(maxSlots, h.runtime.runningCount('healthy'));
      } else if (status === 'COMPLETED' || status === 'FAILED') {
        working -= 1;
      }
    });
    const ids = Array.from({ length: 7 }, (_, i) => h.submit('healthy', { delay_ms: 100, tag: i }));
    // Two start at once; the others wait their turn in SUBMITTED.
    expect(ids.map((id) => h.task(id).status)).toEqual(['WORKING', 'WORKING', 'SUBMITTED', 'SUBMITTED', 'SUBMITTED', 'SUBMITTED', 'SUBMITTED']);
    await Promise.all(ids.map((id) => h.waitFor(id, ['COMPLETED', 'FAILED'])));
    off();
    expect(ids.map((id) => h.task(id).status)).toEqual(ids.map(() => 'COMPLETED'));
    expect(started).toEqual(ids);
    expect(maxWorking).toBe(2);
    expect(maxSlots).toBeLessThanOrEqual(2);
  });

  it('keeps tasks of a disabled agent waiting until it is enabled and rescheduled', async () => {
    const agent = h.add(fixtureAgent('healthy', { enabled: false }));
    h.runtime.start();
    const id = h.submit('healthy', { tag: 'waits' });
    h.runtime.reschedule();
    expect(h.task(id).status).toBe('SUBMITTED');
    expect(h.runtime.workerCount()).toBe(0);
    agent.enabled = true;
    h.runtime.reschedule('healthy');
    expect((await h.waitFor(id, ['COMPLETED', 'FAILED'])).status).toBe('COMPLETED');
  });

  it('does not start tasks before start(), and starts them with it', async () => {
    h.add(fixtureAgent('healthy'));
    const id = h.submit('healthy');
    expect(h.task(id).status).toBe('SUBMITTED');
    h.runtime.start();
    expect((await h.waitFor(id, ['COMPLETED', 'FAILED'])).status).toBe('COMPLETED');
  });

  it('frees the slot of a task waiting for input, and resumes it at once when answered', async () => {
    h.runtime.start();
    h.add(fixtureAgent('asks-twice', { concurrency: 1 }));
    const first = h.submit('asks-twice');
    const second = h.submit('asks-twice');
    await h.waitFor(first, 'INPUT_REQUIRED');
    // The idle worker of `first` stays alive but does not block `second`.
    await h.waitFor(second, 'INPUT_REQUIRED');
    expect(h.runtime.runningCount('asks-twice')).toBe(0);
    expect(h.runtime.workerCount()).toBe(2);
    const third = h.submit('asks-twice');
    await h.waitFor(third, 'INPUT_REQUIRED');

    for (const id of [first, second, third]) h.service.answer('asks-twice', id, { name: `n-${id}` });
    // Answered tasks resume at once, even beyond the concurrency of 1: they were admitted already.
    expect([first, second, third].map((id) => h.task(id).status)).toEqual(['WORKING', 'WORKING', 'WORKING']);
    await Promise.all([first, second, third].map((id) => h.waitFor(id, 'INPUT_REQUIRED')));
    for (const id of [first, second, third]) h.service.answer('asks-twice', id, { quest: 'grail' });
    const done = await Promise.all([first, second, third].map((id) => h.waitFor(id, ['COMPLETED', 'FAILED'])));
    for (const [i, task] of done.entries()) {
      expect(task.status).toBe('COMPLETED');
      expect(task.output).toMatchObject({ first: { name: `n-${[first, second, third][i]}` }, second: { quest: 'grail' } });
    }
    await waitUntil(() => h.runtime.workerCount() === 0, 'all workers exited');
  });
});
