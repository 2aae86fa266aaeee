/**
 * RunningHost.prompts, the desktop shell's feed of questions, against a real host with real
 * workers: entered when an agent asks, left when answered or cancelled, the waiting snapshot, a
 * throwing listener, and tasks still waiting after a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PromptChange } from '../../build/main/core/host.js';
import type { Task } from '../../build/main/shared/protocol.js';
import { makeTempDir } from '../support/temp-dir.js';
import { ISO_TIMESTAMP, startTestHost, type TestHost } from '../support/test-host.js';

const data = makeTempDir();
let t: TestHost;
let heard: PromptChange[];

beforeAll(async () => {
  t = await startTestHost({ dataDir: data.dir, config: { runtime: { cancel_grace_ms: 300 } } });
  heard = [];
  t.host.prompts.on((change) => heard.push(change));
});

afterAll(async () => {
  await t.cleanup();
  data.cleanup();
});

const create = async (slug: string, input: Record<string, unknown>): Promise<string> => {
  const res = await t.request<Task>('POST', `/agents/${slug}/tasks`, { input });
  expect(res.status).toBe(202);
  return res.body.task_id;
};
/** Resolves with the first change `predicate` holds for, among those heard so far or later. */
const changeFor = (predicate: (change: PromptChange) => boolean, timeoutMs = 20_000): Promise<PromptChange> =>
  new Promise((resolve, reject) => {
    const found = heard.find(predicate);
    if (found) return resolve(found);
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no such prompt change in ${timeoutMs} ms; heard ${JSON.stringify(heard)}`));
    }, timeoutMs);
    const stop = t.host.prompts.on((change) => {
      if (!predicate(change)) return;
      clearTimeout(timer);
      stop();
      resolve(change);
    });
  });
const entered = (taskId: string) => (c: PromptChange) => c.kind === 'entered' && c.prompt.task_id === taskId;
const left = (taskId: string) => (c: PromptChange) => c.kind === 'left' && c.task_id === taskId;
const changesOf = (taskId: string): string[] =>
  heard.filter((c) => (c.kind === 'entered' ? c.prompt.task_id : c.task_id) === taskId).map((c) => c.kind);

describe('prompt changes', () => {
  it('announces a question with its text, the agent\'s name and when it was asked, then its answer', async () => {
    const id = await create('echo', { message: 'hello', ask: 'What is your name?' });
    const change = await changeFor(entered(id));
    const task = t.host.store.getRecord(id)!.task;
    expect(task.status).toBe('INPUT_REQUIRED');
    expect(change).toEqual({
      kind: 'entered',
      prompt: { task_id: id, agent_slug: 'echo', agent_display_name: 'Echo', prompt: 'What is your name?', since: task.updated_at },
    });
    expect(task.updated_at).toMatch(ISO_TIMESTAMP);
    expect(t.host.prompts.waiting(50).prompts.map((p) => p.task_id)).toContain(id);

    expect((await t.request('POST', `/agents/echo/tasks/${id}/input`, { input: { name: 'Ada' } })).status).toBe(200);
    await changeFor(left(id));
    await t.waitForStatus(id, 'COMPLETED');
    expect(changesOf(id)).toEqual(['entered', 'left']);
    expect(t.host.prompts.waiting(50).prompts.map((p) => p.task_id)).not.toContain(id);
  });

  it('announces leaving when a waiting task is cancelled', async () => {
    const id = await create('echo', { message: 'hello', ask: 'Cancel me?' });
    await changeFor(entered(id));
    expect((await t.request('POST', `/agents/echo/tasks/${id}/cancel`)).status).toBe(202);
    await changeFor(left(id));
    expect(changesOf(id)).toEqual(['entered', 'left']);
  });

  it('follows an agent that asks twice: entered, left, entered, left', async () => {
    const id = await create('asks-twice', {});
    const first = await changeFor(entered(id));
    expect(first).toMatchObject({ prompt: { agent_slug: 'asks-twice', agent_display_name: 'Asks twice', prompt: 'What is your name?' } });
    expect((await t.request('POST', `/agents/asks-twice/tasks/${id}/input`, { input: { name: 'Ada' } })).status).toBe(200);
    await expect.poll(() => changesOf(id)).toEqual(['entered', 'left', 'entered']);
    const second = heard.filter(entered(id)).at(-1);
    expect(second).toMatchObject({ prompt: { prompt: 'What is your quest?' } });
    expect((await t.request('POST', `/agents/asks-twice/tasks/${id}/input`, { input: { quest: 'the grail' } })).status).toBe(200);
    await t.waitForStatus(id, 'COMPLETED');
    expect(changesOf(id)).toEqual(['entered', 'left', 'entered', 'left']);
  });

  it('says nothing about tasks that never ask', async () => {
    const id = await create('echo', { message: 'no questions' });
    await t.waitForStatus(id, 'COMPLETED');
    expect(changesOf(id)).toEqual([]);
  });

  it('keeps tasks moving when a listener throws', async () => {
    const stop = t.host.prompts.on(() => {
      throw new Error('the tray broke');
    });
    try {
      const id = await create('echo', { message: 'hello', ask: 'Still fine?' });
      await t.waitForStatus(id, 'INPUT_REQUIRED');
      await changeFor(entered(id));
      expect((await t.request('POST', `/agents/echo/tasks/${id}/input`, { input: { ok: true } })).status).toBe(200);
      expect((await t.waitForStatus(id, 'COMPLETED')).output).toEqual({ message: 'hello', answer: { ok: true } });
      expect(changesOf(id)).toEqual(['entered', 'left']);
    } finally {
      stop();
    }
  });
});

describe('waiting()', () => {
  let asked: string[] = [];

  beforeAll(async () => {
    asked = [];
    for (const question of ['First?', 'Second?', 'Third?']) {
      const id = await create('echo', { message: 'wait', ask: question });
      await t.waitForStatus(id, 'INPUT_REQUIRED');
      asked.push(id);
    }
  });

  it('lists the newest first, at most `limit`, with the exact total, as the inbox does', async () => {
    const all = t.host.prompts.waiting(100);
    expect(all.total).toBe(all.prompts.length);
    expect(all.prompts.slice(0, 3).map((p) => p.prompt)).toEqual(['Third?', 'Second?', 'First?']);
    const two = t.host.prompts.waiting(2);
    expect(two).toEqual({ total: all.total, prompts: all.prompts.slice(0, 2) });
    expect(t.host.prompts.waiting(0)).toEqual({ total: all.total, prompts: [] });

    const inbox = t.host.db.prepare(`SELECT task_id FROM tasks WHERE status = 'INPUT_REQUIRED' ORDER BY seq DESC`).all() as Array<{ task_id: string }>;
    expect(all.prompts.map((p) => p.task_id)).toEqual(inbox.map((row) => row.task_id));
  });

  it('still lists the waiting tasks after a restart, and they can be answered', async () => {
    const before = t.host.prompts.waiting(100);
    expect(before.total).toBeGreaterThanOrEqual(3);
    await t.stop();
    t = await startTestHost({ dataDir: data.dir, config: { runtime: { cancel_grace_ms: 300 } } });
    heard = [];
    t.host.prompts.on((change) => heard.push(change));

    expect(t.host.prompts.waiting(100)).toEqual(before);
    const [newest] = asked.slice(-1);
    expect((await t.request('POST', `/agents/echo/tasks/${newest}/input`, { input: { name: 'after restart' } })).status).toBe(200);
    await changeFor(left(newest!));
    expect(t.host.prompts.waiting(100).total).toBe(before.total - 1);
    await t.waitForStatus(newest!, 'COMPLETED');
  });
});
