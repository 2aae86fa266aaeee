import { afterEach, describe, expect, it } from 'vitest';
import type { Task, TaskEvent, TaskStatus } from '../../../build/main/shared/protocol.js';
import { Harness, TEST_RUNTIME, fixtureAgent, processGone, waitUntil } from './harness.js';

let h: Harness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

function started(runtime = TEST_RUNTIME): Harness {
  h = new Harness(runtime);
  h.runtime.start();
  return h;
}

describe('cancelling a running task', () => {
  it('is CANCELLED at once, fires the signal, and kills a worker that ignores it after the grace', async () => {
    const h = started();
    h.add(fixtureAgent('ignores-cancel'));
    const id = h.submit('ignores-cancel');
    await h.waitForLog(id, (line) => line === 'waiting');
    const pid = h.runtime.workerPid(id)!;

    const cancelled = h.service.cancel('ignores-cancel', id);
    expect(cancelled.status).toBe('CANCELLED');
    expect(h.task(id).status).toBe('CANCELLED');
    // The grace period has not run yet: the worker is still there and still holds its slot.
    expect(processGone(pid)).toBe(false);
    expect(h.runtime.runningCount('ignores-cancel')).toBe(1);

    await h.waitForLog(id, (line) => line === 'abort seen: the task was cancelled');
    await waitUntil(() => processGone(pid), 'the ignoring worker is killed');
    await waitUntil(() => h.runtime.workerCount() === 0, 'the runtime forgets the worker');
    expect(h.runtime.runningCount('ignores-cancel')).toBe(0);
    expect(h.statusHistory(id)).toEqual(['SUBMITTED', 'WORKING', 'CANCELLED']);
    expect(h.task(id).error).toBeUndefined();
  });

  it('lets a worker that honours the signal exit on its own, well before any kill', async () => {
    const h = started({ ...TEST_RUNTIME, cancel_grace_ms: 60_000 });
    h.add(fixtureAgent('healthy'));
    const id = h.submit('healthy', { delay_ms: 60_000 });
    // Cancel only once the plugin runs, so the signal (not an early kill) is what stops it.
    await h.waitForLog(id, (line) => line === 'started');
    const pid = h.runtime.workerPid(id)!;
    h.service.cancel('healthy', id);
    await waitUntil(() => processGone(pid), 'the worker exits by itself', 15_000);
    expect(h.statusHistory(id)).toEqual(['SUBMITTED', 'WORKING', 'CANCELLED']);
    // Its failure report (the AbortError) arrived after CANCELLED and was ignored.
    expect(h.logRecords.some((record) => record.msg.includes('no longer WORKING ignored'))).toBe(true);
  });

  it('keeps the slot of an ignoring worker until it is killed; the next task starts only then', async () => {
    const h = started();
    h.add(fixtureAgent('ignores-cancel', { concurrency: 1 }));
    const first = h.submit('ignores-cancel');
    const second = h.submit('ignores-cancel');
    await h.waitForLog(first, (line) => line === 'waiting');
    expect(h.task(second).status).toBe('SUBMITTED');
    const firstPid = h.runtime.workerPid(first)!;

    let firstGoneWhenSecondStarted: boolean | undefined;
    const off = h.store.onEvent((event) => {
      if (event.task_id === second && event.kind === 'status' && (event.data as Task).status === 'WORKING') {
        firstGoneWhenSecondStarted = processGone(firstPid);
      }
    });
    h.service.cancel('ignores-cancel', first);
    expect(h.task(second).status).toBe('SUBMITTED');
    await h.waitFor(second, 'WORKING');
    off();
    expect(firstGoneWhenSecondStarted).toBe(true);
  });

  it('skips a task cancelled while it was queued', async () => {
    const h = started();
    h.add(fixtureAgent('healthy', { concurrency: 1 }));
    const first = h.submit('healthy', { delay_ms: 200 });
    const queued = h.submit('healthy');
    h.service.cancel('healthy', queued);
    await h.waitFor(first, 'COMPLETED');
    await waitUntil(() => h.runtime.workerCount() === 0, 'no workers left');
    expect(h.statusHistory(queued)).toEqual(['SUBMITTED', 'CANCELLED']);
  });

  it('ends every task in exactly one terminal state when cancels race completions', async () => {
    const h = started();
    h.add(fixtureAgent('healthy', { concurrency: 4 }));
    const count = 40;
    const statusEvents = new Map<string, TaskStatus[]>();
    const off = h.store.onEvent((event: TaskEvent) => {
      if (event.kind !== 'status') return;
      const list = statusEvents.get(event.task_id) ?? [];
      list.push((event.data as Task).status);
      statusEvents.set(event.task_id, list);
    });
    // Each cancel fires at a different moment: as the task starts (before its worker is ready),
    // or measured from the plugin's own `started` line, shortly before, at, or after the moment
    // its result is due, and for a few tasks well after it (they surely complete first).
    const ids: string[] = [];
    const plan = new Map<string, { on: 'WORKING' | 'started'; delay: number }>();
    const cancelLater = (id: string, delay: number): void => {
      setTimeout(() => {
        try {
          h.service.cancel('healthy', id);
        } catch {
          // 409 INVALID_STATE: the task completed first, which is one of the two allowed outcomes.
        }
      }, delay);
    };
    const cancelOn = h.store.onEvent((event) => {
      const step = plan.get(event.task_id);
      if (!step) return;
      if (step.on === 'WORKING' && event.kind === 'status' && (event.data as Task).status === 'WORKING') cancelLater(event.task_id, step.delay);
      if (step.on === 'started' && event.kind === 'log' && (event.data as { message: string }).message === 'started') cancelLater(event.task_id, step.delay);
    });
    for (let i = 0; i < count; i += 1) {
      const runFor = 5 * (i % 8);
      const id = h.submit('healthy', { delay_ms: runFor, tag: i });
      ids.push(id);
      if (i % 5 === 0) plan.set(id, { on: 'WORKING', delay: 0 });
      else if (i % 7 === 0) plan.set(id, { on: 'started', delay: runFor + 500 });
      else plan.set(id, { on: 'started', delay: Math.max(0, runFor + ((i * 13) % 31) - 15) });
    }
    await Promise.all(ids.map((id) => h.waitFor(id, ['COMPLETED', 'CANCELLED', 'FAILED'], 60_000)));
    await waitUntil(() => h.runtime.workerCount() === 0, 'every worker has exited', 30_000);
    // Late results, failures and kills have all been processed by now: nothing may have moved.
    cancelOn();
    off();

    const outcomes = new Map<TaskStatus, number>();
    for (const id of ids) {
      const history = statusEvents.get(id) ?? [];
      const terminal = history.filter((status) => ['COMPLETED', 'FAILED', 'CANCELLED'].includes(status));
      expect(terminal, `terminal events of ${id}: ${history.join(',')}`).toHaveLength(1);
      expect(history[history.length - 1]).toBe(terminal[0]);
      const task = h.task(id);
      expect(task.status).toBe(terminal[0]);
      expect(['COMPLETED', 'CANCELLED']).toContain(task.status);
      if (task.status === 'COMPLETED') expect(task.output).toMatchObject({ echo: { tag: expect.any(Number) } });
      else expect(task.output).toBeUndefined();
      expect(h.statusHistory(id)).toEqual(history);
      outcomes.set(task.status, (outcomes.get(task.status) ?? 0) + 1);
    }
    // Both outcomes occur, or the test would not be exercising the race at all.
    expect(outcomes.get('CANCELLED') ?? 0).toBeGreaterThan(0);
    expect(outcomes.get('COMPLETED') ?? 0).toBeGreaterThan(0);
  }, 120_000);
});
