import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseTooNewError, openDatabase, schemaVersion, type Db } from '../../../build/main/core/store/database.js';
import { MIGRATIONS } from '../../../build/main/core/store/migrations.js';
import { TaskStore } from '../../../build/main/core/store/task-store.js';
import { TASK_STATUSES, type TaskEvent, type TaskStatus } from '../../../build/main/shared/protocol.js';
import { ALLOWED_TRANSITIONS } from '../../../build/main/shared/task-states.js';
import { makeTempDir } from '../../support/temp-dir.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Drives a fresh task to `status` through allowed transitions only. */
function taskIn(store: TaskStore, status: TaskStatus): string {
  const { task } = store.createTask({ agentSlug: 'echo', agentId: 'a', input: { message: 'x' } });
  const id = task.task_id;
  const paths: Record<TaskStatus, () => void> = {
    SUBMITTED: () => undefined,
    WORKING: () => store.transition(id, 'WORKING'),
    INPUT_REQUIRED: () => (store.transition(id, 'WORKING'), store.requestInput(id, 'Name?')),
    COMPLETED: () => (store.transition(id, 'WORKING'), store.transition(id, 'COMPLETED', { output: { ok: true } })),
    FAILED: () => (store.transition(id, 'WORKING'), store.transition(id, 'FAILED', { error: { code: 'X', message: 'y' } })),
    CANCELLED: () => store.transition(id, 'CANCELLED'),
  };
  paths[status]();
  expect(store.getRecord(id)?.task.status).toBe(status);
  return id;
}

describe('TaskStore', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let db: Db;
  let store: TaskStore;

  beforeEach(() => {
    tmp = makeTempDir();
    db = openDatabase(`${tmp.dir}/agent-host.db`);
    store = new TaskStore(db);
  });
  afterEach(() => {
    db.close();
    tmp.cleanup();
  });

  it('opens in WAL mode at the newest schema version', () => {
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(schemaVersion(db)).toBe(Math.max(...MIGRATIONS.map((m) => m.version)));
  });

  it('refuses a database written by a newer version, leaving it untouched', () => {
    const file = `${tmp.dir}/newer.db`;
    const raw = new Database(file);
    raw.pragma('user_version = 999');
    raw.exec('CREATE TABLE keep (x)');
    raw.close();
    expect(() => openDatabase(file)).toThrow(DatabaseTooNewError);
    const after = new Database(file);
    expect(after.pragma('user_version', { simple: true })).toBe(999);
    expect(after.prepare("SELECT name FROM sqlite_master WHERE name = 'tasks'").get()).toBeUndefined();
    after.close();
  });

  it('creates SUBMITTED tasks with protocol timestamps and a status event', () => {
    const events: TaskEvent[] = [];
    store.onEvent((e) => events.push(e));
    const result = store.createTask({ agentSlug: 'echo', agentId: 'agent-1', input: { message: 'hi' } });
    expect(result.kind).toBe('created');
    const { task } = result;
    expect(task).toMatchObject({ agent_id: 'agent-1', status: 'SUBMITTED', input: { message: 'hi' } });
    expect(task.task_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(task.created_at).toMatch(ISO);
    expect(task.updated_at).toBe(task.created_at);
    expect(events).toEqual([expect.objectContaining({ kind: 'status', task_id: task.task_id, data: task })]);
  });

  describe('state machine', () => {
    for (const from of TASK_STATUSES) {
      for (const to of TASK_STATUSES) {
        const allowed = ALLOWED_TRANSITIONS[from].includes(to);
        it(`${from} → ${to} is ${allowed ? 'allowed' : 'refused'}`, () => {
          const id = taskIn(store, from);
          const before = store.getRecord(id)!.task;
          const eventsBefore = store.listEvents(id).length;
          const result =
            to === 'INPUT_REQUIRED' ? store.requestInput(id, 'Why?') : store.transition(id, to, to === 'FAILED' ? { error: { code: 'E', message: 'm' } } : {});
          expect(result.ok).toBe(allowed);
          const after = store.getRecord(id)!.task;
          if (allowed) {
            expect(after.status).toBe(to);
            expect(store.listEvents(id).length).toBeGreaterThan(eventsBefore);
          } else {
            expect(after).toEqual(before);
            expect(store.listEvents(id).length).toBe(eventsBefore);
          }
        });
      }
    }
  });

  it('keeps the prompt only while INPUT_REQUIRED and records prompt and answer events in order', () => {
    const id = taskIn(store, 'WORKING');
    store.requestInput(id, 'Which colour?', { type: 'object', properties: { colour: { type: 'string' } } });
    expect(store.getRecord(id)!.task).toMatchObject({ status: 'INPUT_REQUIRED', prompt: 'Which colour?', prompt_schema: { type: 'object' } });
    const answered = store.answer(id, { colour: 'blue' });
    expect(answered.ok).toBe(true);
    const task = store.getRecord(id)!.task;
    expect(task.status).toBe('WORKING');
    expect(task.prompt).toBeUndefined();
    expect(task.prompt_schema).toBeUndefined();
    expect(store.listEvents(id).map((e) => (e.kind === 'status' ? `status:${(e.data as { status: string }).status}` : e.kind))).toEqual([
      'status:SUBMITTED',
      'status:WORKING',
      'prompt',
      'status:INPUT_REQUIRED',
      'answer',
      'status:WORKING',
    ]);
    expect(store.answersOf(id)).toEqual([{ colour: 'blue' }]);
    expect(store.answer(id, { colour: 'red' }).ok).toBe(false);
  });

  it('lets exactly one of two racing terminal transitions win', () => {
    const id = taskIn(store, 'WORKING');
    const cancel = store.transition(id, 'CANCELLED');
    const complete = store.transition(id, 'COMPLETED', { output: { late: true } });
    expect(cancel.ok).toBe(true);
    expect(complete.ok).toBe(false);
    const task = store.getRecord(id)!.task;
    expect(task.status).toBe('CANCELLED');
    expect(task.output).toBeUndefined();
    const terminalEvents = store.listEvents(id).filter((e) => e.kind === 'status' && ['COMPLETED', 'CANCELLED', 'FAILED'].includes((e.data as { status: string }).status));
    expect(terminalEvents).toHaveLength(1);
  });

  it('refuses a FAILED task without an error object at the database level', () => {
    const id = taskIn(store, 'WORKING');
    expect(() => store.transition(id, 'FAILED')).toThrow(/CHECK constraint/);
    expect(store.getRecord(id)!.task.status).toBe('WORKING');
    expect(store.listEvents(id).filter((e) => e.kind === 'status')).toHaveLength(2);
  });

  it('replays an idempotent create and refuses a reused key with another body', () => {
    const spec = { agentSlug: 'echo', agentId: 'a', input: { message: 'x' }, idempotencyKey: 'k1', requestHash: 'h1' };
    const first = store.createTask(spec);
    const again = store.createTask(spec);
    expect(again).toEqual({ kind: 'replayed', task: first.task });
    expect(store.createTask({ ...spec, requestHash: 'h2' }).kind).toBe('key-reused');
    expect(store.createTask({ ...spec, agentSlug: 'other' }).kind).toBe('created');
  });

  it('hides a task from another agent', () => {
    const id = taskIn(store, 'SUBMITTED');
    expect(store.getTask('echo', id)?.task_id).toBe(id);
    expect(store.getTask('python-script', id)).toBeUndefined();
  });

  it('tells listeners only after commit, and nothing when the transaction rolls back', () => {
    const seen: TaskEvent[] = [];
    store.addStatusHook((record) => {
      if (record.task.status === 'COMPLETED') throw new Error('hook refused');
    });
    const id = taskIn(store, 'WORKING');
    store.onEvent((e) => seen.push(e));
    expect(() => store.transition(id, 'COMPLETED', { output: {} })).toThrow('hook refused');
    expect(seen).toEqual([]);
    expect(store.getRecord(id)!.task.status).toBe('WORKING');
    store.appendLogs(id, [{ level: 'INFO', message: 'one' }, { level: 'WARN', message: 'two' }]);
    expect(seen.map((e) => e.kind)).toEqual(['log', 'log']);
    expect(seen[0]!.id).toBeLessThan(seen[1]!.id);
  });

  it('keeps agent ids per slug, and a manifest-fixed id wins', () => {
    const first = store.agentIdFor('echo');
    expect(store.agentIdFor('echo')).toBe(first);
    expect(store.agentIdFor('other')).not.toBe(first);
    const fixed = 'f47ac10b-58cc-4372-a567-0e02b2c3d479';
    expect(store.agentIdFor('python-script', fixed)).toBe(fixed);
    const reopened = new TaskStore(db);
    expect(reopened.agentIdFor('echo')).toBe(first);
  });

  it('lists SUBMITTED tasks of an agent oldest first', () => {
    const ids = [taskIn(store, 'SUBMITTED'), taskIn(store, 'SUBMITTED'), taskIn(store, 'SUBMITTED')];
    store.transition(ids[1]!, 'CANCELLED');
    expect(store.oldestSubmitted('echo', 10).map((r) => r.task.task_id)).toEqual([ids[0], ids[2]]);
    expect(store.oldestSubmitted('echo', 1).map((r) => r.task.task_id)).toEqual([ids[0]]);
  });
});
