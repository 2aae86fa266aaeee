import { describe, expect, it } from 'vitest';
import type { InboxItem, TaskDetail, TaskSummary } from '../../../main/shared/control-api.js';
import type { Task, TaskEvent, TaskStatus } from '../../../main/shared/protocol.js';
import {
  applyEventsToDetail,
  applyInboxUpdates,
  applyTaskUpdates,
  EMPTY_FILTERS,
  matchesFilters,
  prependEvents,
  summaryOf,
  type InboxRows,
  type TaskFilters,
  type TaskRows,
  type TaskUpdate,
} from '../../../renderer/src/store/task-reducers.js';

/** Task n was created at minute n: a higher n is newer. */
function task(n: number, status: TaskStatus = 'WORKING', extra: Partial<Task> = {}): Task {
  const minute = String(n).padStart(2, '0');
  return {
    task_id: `t${n}`,
    agent_id: 'a',
    status,
    input: { message: `job ${n}` },
    created_at: `2025-01-01T10:${minute}:00.000Z`,
    updated_at: `2025-01-01T11:${minute}:00.000Z`,
    ...extra,
  };
}

let nextEventId = 1000;
function update(t: Task, agent = 'echo'): TaskUpdate {
  return { task: t, agent_slug: agent, eventId: nextEventId++ };
}

function rows(...ns: number[]): TaskSummary[] {
  return ns.map((n) => summaryOf(task(n), 'echo'));
}

const filters = (f: Partial<TaskFilters>): TaskFilters => ({ ...EMPTY_FILTERS, ...f });

describe('task list: live status updates', () => {
  it('inserts a new task on top and counts it', () => {
    const list: TaskRows = { rows: rows(5, 4, 3), total: 3 };
    const next = applyTaskUpdates(list, [update(task(6, 'SUBMITTED'))], EMPTY_FILTERS);
    expect(next.rows.map((r) => r.task_id)).toEqual(['t6', 't5', 't4', 't3']);
    expect(next.total).toBe(4);
  });

  it('updates a row in place and keeps only the newest update of a task in a batch', () => {
    const list: TaskRows = { rows: rows(5, 4, 3), total: 3 };
    const next = applyTaskUpdates(list, [update(task(4, 'INPUT_REQUIRED', { prompt: 'Name?' })), update(task(4, 'COMPLETED'))], EMPTY_FILTERS);
    expect(next.rows.map((r) => [r.task_id, r.status])).toEqual([
      ['t5', 'WORKING'],
      ['t4', 'COMPLETED'],
      ['t3', 'WORKING'],
    ]);
    expect(next.total).toBe(3);
  });

  it('respects the status filter: a task leaving it is removed, one entering it is inserted in order', () => {
    const f = filters({ status: ['WORKING'] });
    const list: TaskRows = { rows: rows(5, 3, 1), total: 3 };
    const next = applyTaskUpdates(list, [update(task(3, 'COMPLETED')), update(task(4, 'WORKING')), update(task(2, 'FAILED'))], f);
    expect(next.rows.map((r) => r.task_id)).toEqual(['t5', 't4', 't1']);
    expect(next.total).toBe(3);
  });

  it('respects the agent filter and the search text', () => {
    const list: TaskRows = { rows: [], total: 0 };
    const byAgent = applyTaskUpdates(list, [update(task(1), 'echo'), update(task(2), 'python-script')], filters({ agent: ['python-script'] }));
    expect(byAgent.rows.map((r) => r.task_id)).toEqual(['t2']);
    const bySearch = applyTaskUpdates(list, [update(task(1)), update(task(2, 'FAILED', { error: { code: 'X', message: 'Disk FULL' } }))], filters({ q: 'disk full' }));
    expect(bySearch.rows.map((r) => r.task_id)).toEqual(['t2']);
  });

  it('leaves tasks older than the loaded pages to paging', () => {
    const list: TaskRows = { rows: rows(9, 8), total: 50, nextCursor: 'c' };
    const next = applyTaskUpdates(list, [update(task(3, 'COMPLETED'))], EMPTY_FILTERS);
    expect(next).toBe(list);
  });

  it('inserts into the middle when every page is loaded', () => {
    const list: TaskRows = { rows: rows(9, 2), total: 2 };
    const next = applyTaskUpdates(list, [update(task(5))], EMPTY_FILTERS);
    expect(next.rows.map((r) => r.task_id)).toEqual(['t9', 't5', 't2']);
  });

  it('returns the same object when nothing changes (no re-render)', () => {
    const list: TaskRows = { rows: rows(2), total: 1 };
    expect(applyTaskUpdates(list, [], EMPTY_FILTERS)).toBe(list);
    expect(applyTaskUpdates(list, [update(task(1, 'FAILED'))], filters({ status: ['WORKING'] }))).toBe(list);
  });

  it('builds list rows like the server: prompt while waiting, error code, input preview', () => {
    const waiting = summaryOf(task(1, 'INPUT_REQUIRED', { prompt: 'Go?' }), 'echo');
    expect(waiting).toMatchObject({ status: 'INPUT_REQUIRED', prompt: 'Go?', input_preview: '{"message":"job 1"}' });
    const failed = summaryOf(task(2, 'FAILED', { error: { code: 'TIMEOUT', message: 'too slow' } }), 'echo');
    expect(failed.error_code).toBe('TIMEOUT');
    expect(summaryOf(task(3, 'WORKING', { input: { text: 'x'.repeat(500) } }), 'echo').input_preview).toHaveLength(200);
  });

  it('matches filters on status, agent and text together', () => {
    const t = task(1, 'FAILED', { prompt: undefined, error: { code: 'E', message: 'Quota exceeded' } });
    expect(matchesFilters(t, 'echo', filters({ status: ['FAILED'], agent: ['echo'], q: 'QUOTA' }))).toBe(true);
    expect(matchesFilters(t, 'echo', filters({ status: ['FAILED'], agent: ['other'] }))).toBe(false);
    expect(matchesFilters(t, 'echo', filters({ q: 't1' }))).toBe(true);
    expect(matchesFilters(t, 'echo', filters({ q: 'job 2' }))).toBe(false);
  });
});

describe('task detail: live events', () => {
  const status = (id: number, t: Task): TaskEvent => ({ id, task_id: t.task_id, kind: 'status', data: t });
  const log = (id: number, message: string, taskId = 't1'): TaskEvent => ({
    id,
    task_id: taskId,
    kind: 'log',
    data: { timestamp: '2025-01-01T11:00:00.000Z', level: 'INFO', message },
  });
  const detail = (): TaskDetail => ({
    task: task(1, 'WORKING'),
    agent_slug: 'echo',
    agent_url: 'http://h/agents/echo',
    artifacts: [],
    deliveries: [],
    events: [status(10, task(1, 'SUBMITTED')), status(11, task(1, 'WORKING')), log(12, 'one')],
    more_events_before: false,
  });

  it('appends new events and moves the task to its newest status', () => {
    const next = applyEventsToDetail(detail(), [log(13, 'two'), status(14, task(1, 'COMPLETED', { output: { ok: true } }))]);
    expect(next.events.map((e) => e.id)).toEqual([10, 11, 12, 13, 14]);
    expect(next.task).toMatchObject({ status: 'COMPLETED', output: { ok: true } });
  });

  it('skips events it already has (a replay, or a race with its own fetch) and other tasks’ events', () => {
    const d = detail();
    expect(applyEventsToDetail(d, [log(12, 'one'), status(11, task(1, 'WORKING')), log(20, 'other', 't2')])).toBe(d);
    const out = applyEventsToDetail(d, [log(15, 'late'), log(13, 'early')]);
    expect(out.events.map((e) => e.id)).toEqual([10, 11, 12, 13, 15]);
  });

  it('never moves a task back to an older status', () => {
    const d = applyEventsToDetail(detail(), [status(14, task(1, 'COMPLETED'))]);
    expect(applyEventsToDetail(d, [status(11, task(1, 'WORKING'))]).task.status).toBe('COMPLETED');
  });

  it('puts earlier events in front, once', () => {
    const d = { ...detail(), more_events_before: true };
    const next = prependEvents(d, [log(5, 'a'), log(6, 'b'), log(10, 'dup')], false);
    expect(next.events.map((e) => e.id)).toEqual([5, 6, 10, 11, 12]);
    expect(next.more_events_before).toBe(false);
  });
});

describe('inbox: live status updates', () => {
  const item = (t: Task): InboxItem => ({ task: t, agent_slug: 'echo', agent_display_name: 'Echo' });
  const name = (slug: string): string => `Agent ${slug}`;
  const inbox = (items: InboxItem[], more: Partial<InboxRows> = {}): InboxRows => ({ items, total: items.length, ...more });

  it('adds a task that starts waiting (on top) and removes one that moves on, counting both', () => {
    const items = [item(task(1, 'INPUT_REQUIRED', { prompt: 'A?' })), item(task(2, 'INPUT_REQUIRED', { prompt: 'B?' }))];
    const next = applyInboxUpdates(inbox(items), [update(task(3, 'INPUT_REQUIRED', { prompt: 'C?' }), 'python-script'), update(task(1, 'WORKING'))], name, {});
    expect(next.items.map((i) => [i.task.task_id, i.agent_display_name])).toEqual([
      ['t3', 'Agent python-script'],
      ['t2', 'Echo'],
    ]);
    expect(next.total).toBe(2);
  });

  it('puts live arrivals on top in the order they came, whatever their age, and keeps the pages in server order', () => {
    const items = [item(task(5, 'INPUT_REQUIRED')), item(task(4, 'INPUT_REQUIRED'))];
    const next = applyInboxUpdates(inbox(items), [{ ...update(task(1, 'INPUT_REQUIRED')), eventId: 20 }, { ...update(task(9, 'INPUT_REQUIRED')), eventId: 21 }], name, {});
    expect(next.items.map((i) => i.task.task_id)).toEqual(['t9', 't1', 't5', 't4']);
    expect(next.total).toBe(4);
  });

  it('follows a task through the batch in event order (asked and answered: no change)', () => {
    const list = inbox([item(task(5, 'INPUT_REQUIRED'))], { total: 30, nextCursor: 'c', pagedOldest: task(5).created_at });
    const asked = { ...update(task(2, 'INPUT_REQUIRED')), eventId: 40 };
    const moved = { ...update(task(2, 'WORKING')), eventId: 42, afterAnswer: true };
    expect(applyInboxUpdates(list, [moved, asked], name, {})).toMatchObject({ total: 30, items: list.items });
  });

  it('knows a task not loaded was waiting when an answer came before its status; is unsure of a cancel', () => {
    const list = inbox([item(task(5, 'INPUT_REQUIRED'))], { total: 30, nextCursor: 'c', pagedOldest: task(5).created_at });
    expect(applyInboxUpdates(list, [{ ...update(task(2, 'WORKING')), afterAnswer: true }], name, {}).total).toBe(29);
    expect(applyInboxUpdates(list, [update(task(2, 'WORKING'))], name, {})).toBe(list);
    expect(applyInboxUpdates(list, [update(task(2, 'CANCELLED'))], name, {})).toMatchObject({ total: 30, uncertain: true });
    // Newer than the loaded pages, or every page loaded: it was not waiting.
    expect(applyInboxUpdates(list, [update(task(7, 'CANCELLED'))], name, {})).toBe(list);
    const whole = inbox(list.items);
    expect(applyInboxUpdates(whole, [update(task(2, 'CANCELLED'))], name, {})).toBe(whole);
  });

  it('does not bring back a task whose answer is on its way, but does show its next question', () => {
    const asked = task(4, 'INPUT_REQUIRED', { prompt: 'First?' });
    const answered = { t4: asked.updated_at };
    expect(applyInboxUpdates(inbox([]), [update(asked)], name, answered)).toEqual(inbox([]));
    expect(applyInboxUpdates(inbox([]), [update(task(4, 'WORKING'))], name, answered).total).toBe(0);
    const again = task(4, 'INPUT_REQUIRED', { prompt: 'Second?', updated_at: '2025-01-01T12:00:00.000Z' });
    const next = applyInboxUpdates(inbox([]), [update(again)], name, answered);
    expect(next.items.map((i) => i.task.prompt)).toEqual(['Second?']);
    expect(next.total).toBe(1);
  });

  it('returns the same list when nothing changes', () => {
    const list = inbox([item(task(1, 'INPUT_REQUIRED'))]);
    expect(applyInboxUpdates(list, [update(task(9, 'COMPLETED'))], name, {})).toBe(list);
  });
});
