/**
 * TaskPromptFeed over a real SQLite store: which committed status changes are announced, the
 * waiting snapshot (order, limit, exact total) with thousands of tasks waiting, and listeners
 * that throw.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentDirectory, LoadedAgent } from '../../../build/main/core/agents/loaded-agent.js';
import { createLogger } from '../../../build/main/core/logger.js';
import { openDatabase, type Db } from '../../../build/main/core/store/database.js';
import { TaskQueries } from '../../../build/main/core/store/task-queries.js';
import { TaskStore, type StatusChange } from '../../../build/main/core/store/task-store.js';
import { TaskPromptFeed, type PromptChange } from '../../../build/main/core/tasks/prompt-feed.js';
import { seedTasks } from '../../support/seed-tasks.js';
import { makeTempDir } from '../../support/temp-dir.js';

/** Only what the feed reads of an agent: its display name. */
const agents: AgentDirectory = {
  get: (slug) => (slug === 'echo' ? ({ slug, manifest: { display_name: 'Echo' } } as LoadedAgent) : undefined),
  list: () => [],
};

let tmp: ReturnType<typeof makeTempDir>;
let db: Db;
let store: TaskStore;
let feed: TaskPromptFeed;
let heard: PromptChange[];

beforeEach(() => {
  tmp = makeTempDir();
  db = openDatabase(`${tmp.dir}/agent-host.db`);
  store = new TaskStore(db);
  feed = new TaskPromptFeed({ store, queries: new TaskQueries(db), agents, logger: createLogger('silent') });
  heard = [];
  feed.on((change) => heard.push(change));
});
afterEach(() => {
  db.close();
  tmp.cleanup();
});

function working(slug = 'echo'): string {
  const id = store.createTask({ agentSlug: slug, agentId: 'a', input: { message: 'x' } }).task.task_id;
  store.transition(id, 'WORKING');
  return id;
}

describe('prompt changes', () => {
  it('announces a task entering INPUT_REQUIRED with its prompt, agent name and time, and leaving it on an answer', () => {
    const id = working();
    expect(heard).toEqual([]);
    store.requestInput(id, 'What is your name?', { type: 'object' });
    const task = store.getRecord(id)!.task;
    expect(heard).toEqual([
      { kind: 'entered', prompt: { task_id: id, agent_slug: 'echo', agent_display_name: 'Echo', prompt: 'What is your name?', since: task.updated_at } },
    ]);
    store.answer(id, { name: 'Ada' });
    expect(heard.at(-1)).toEqual({ kind: 'left', task_id: id });
    // Back to WORKING and on to the end: nothing more to announce.
    store.transition(id, 'COMPLETED', { output: {} });
    expect(heard).toHaveLength(2);
  });

  it('announces leaving on a cancel, and names an agent that is gone by its slug', () => {
    const id = working('gone-agent');
    store.requestInput(id, 'Still there?');
    expect(heard).toEqual([{ kind: 'entered', prompt: expect.objectContaining({ task_id: id, agent_slug: 'gone-agent', agent_display_name: 'gone-agent' }) }]);
    store.transition(id, 'CANCELLED');
    expect(heard.at(-1)).toEqual({ kind: 'left', task_id: id });
  });

  it('says nothing about tasks that never wait, nor about a refused transition', () => {
    const done = working();
    store.transition(done, 'FAILED', { error: { code: 'X', message: 'y' } });
    const queued = store.createTask({ agentSlug: 'echo', agentId: 'a', input: {} }).task.task_id;
    store.transition(queued, 'CANCELLED');
    expect(store.answer(done, { late: true }).ok).toBe(false);
    expect(heard).toEqual([]);
  });

  it('says nothing about a change whose transaction rolled back', () => {
    const id = working();
    store.addStatusHook((record) => {
      if (record.task.task_id === id && record.task.status === 'INPUT_REQUIRED') throw new Error('outbox full');
    });
    expect(() => store.requestInput(id, 'Name?')).toThrow('outbox full');
    expect(store.getRecord(id)!.task.status).toBe('WORKING');
    const other = working();
    store.transition(other, 'COMPLETED', { output: {} });
    expect(heard).toEqual([]);
  });

  it('keeps the store and the other listeners going when a listener throws', () => {
    const statusChanges: StatusChange[] = [];
    feed.on(() => {
      throw new Error('tray broke');
    });
    const later: PromptChange[] = [];
    feed.on((change) => later.push(change));
    store.onStatusChange((change) => statusChanges.push(change));

    const id = working();
    expect(store.requestInput(id, 'Name?').ok).toBe(true);
    expect(store.answer(id, { name: 'Ada' }).ok).toBe(true);
    expect(store.getRecord(id)!.task.status).toBe('WORKING');
    expect(heard.map((c) => c.kind)).toEqual(['entered', 'left']);
    expect(later.map((c) => c.kind)).toEqual(['entered', 'left']);
    expect(statusChanges.map((c) => [c.previous, c.record.task.status])).toEqual([
      [undefined, 'SUBMITTED'],
      ['SUBMITTED', 'WORKING'],
      ['WORKING', 'INPUT_REQUIRED'],
      ['INPUT_REQUIRED', 'WORKING'],
    ]);
  });

  it('stops calling a listener once it unsubscribed', () => {
    const mine: PromptChange[] = [];
    const stop = feed.on((change) => mine.push(change));
    stop();
    store.requestInput(working(), 'Name?');
    expect(mine).toEqual([]);
    expect(heard).toHaveLength(1);
  });
});

describe('waiting()', () => {
  it('lists the newest first, at most `limit`, with the exact total', () => {
    const ids = [working(), working(), working()];
    for (const id of ids) store.requestInput(id, `Question for ${id}?`);
    working();

    const two = feed.waiting(2);
    expect(two.total).toBe(3);
    expect(two.prompts.map((p) => p.task_id)).toEqual([ids[2], ids[1]]);
    expect(two.prompts[0]).toEqual({
      task_id: ids[2],
      agent_slug: 'echo',
      agent_display_name: 'Echo',
      prompt: `Question for ${ids[2]}?`,
      since: store.getRecord(ids[2]!)!.task.updated_at,
    });
    expect(feed.waiting(10)).toEqual({ total: 3, prompts: [...two.prompts, expect.objectContaining({ task_id: ids[0] })] });
    expect(feed.waiting(0)).toEqual({ total: 3, prompts: [] });

    store.transition(ids[2]!, 'CANCELLED');
    expect(feed.waiting(10).total).toBe(2);
    expect(() => feed.waiting(-1)).toThrow(RangeError);
    expect(() => feed.waiting(1.5)).toThrow(RangeError);
  });

  it('finds the newest of 5,000 tasks waiting among 100,000, with the exact total', () => {
    seedTasks(db, 100_000);
    const newest = db
      .prepare(`SELECT task_id FROM tasks WHERE status = 'INPUT_REQUIRED' ORDER BY seq DESC LIMIT 10`)
      .all()
      .map((row) => (row as { task_id: string }).task_id);
    const first = feed.waiting(10);
    expect(first.total).toBe(5000);
    expect(first.prompts.map((p) => p.task_id)).toEqual(newest);
    expect(first.prompts[0]!.prompt).toMatch(/^Which colour for task \d+\?$/);
    // How fast this is, is measured in test/bench/control.bench.ts (the tray reads it on every change).
  });
});
