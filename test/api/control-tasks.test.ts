/**
 * The control API's task views and actions against real tasks (echo agent, real workers): try-it,
 * the inbox and answering, cancel, the detail view with its event log, artifacts and their content.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArtifactListPage, InboxItem, InboxList, TaskDetail, TaskEventsPage } from '../../build/main/shared/control-api.js';
import type { ErrorBody, Task, TaskEvent } from '../../build/main/shared/protocol.js';
import type { ControlClient } from '../support/control-client.js';
import { seedTasks } from '../support/seed-tasks.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

let t: TestHost;
let client: ControlClient;

beforeAll(async () => {
  t = await startTestHost({ config: { runtime: { cancel_grace_ms: 500 } } });
  client = await t.controlSession();
});

afterAll(async () => {
  await t.cleanup();
});

const tryIt = (input: Record<string, unknown>, slug = 'echo') => client.request<Task>('POST', `/api/agents/${slug}/tasks`, { input });

describe('try-it, inbox and answers', () => {
  it('creates a task through the agent (202), lists it in the inbox while it asks, and resumes it with the answer', async () => {
    const created = await tryIt({ message: 'hello', ask: 'What is your name?' });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({ status: 'SUBMITTED', input: { message: 'hello', ask: 'What is your name?' } });
    const id = created.body.task_id;
    await t.waitForStatus(id, 'INPUT_REQUIRED');

    const inbox = await client.get<{ items: InboxItem[] }>('/api/inbox');
    expect(inbox.status).toBe(200);
    const item = inbox.body.items.find((entry) => entry.task.task_id === id);
    expect(item).toEqual({
      task: t.host.store.getRecord(id)!.task,
      agent_slug: 'echo',
      agent_display_name: 'Echo',
    });
    expect(item!.task.prompt).toBe('What is your name?');

    const answered = await client.request<Task>('POST', `/api/tasks/${id}/answer`, { input: { name: 'Ada' } });
    expect(answered.status).toBe(200);
    expect(answered.body.status).toBe('WORKING');
    const done = await t.waitForStatus(id, 'COMPLETED');
    expect(done.output).toEqual({ message: 'hello', answer: { name: 'Ada' } });
    const after = await client.get<{ items: InboxItem[] }>('/api/inbox');
    expect(after.body.items.some((entry) => entry.task.task_id === id)).toBe(false);
  });

  it('lists the inbox newest first', async () => {
    const first = (await tryIt({ message: 'one', ask: 'First?' })).body.task_id;
    await t.waitForStatus(first, 'INPUT_REQUIRED');
    const second = (await tryIt({ message: 'two', ask: 'Second?' })).body.task_id;
    await t.waitForStatus(second, 'INPUT_REQUIRED');
    const ids = (await client.get<{ items: InboxItem[] }>('/api/inbox')).body.items.map((entry) => entry.task.task_id);
    expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first));
    for (const id of [first, second]) expect((await client.request('POST', `/api/tasks/${id}/cancel`)).status).toBe(200);
  });

  it('refuses what the A2A server refuses: bad input (400), unknown agent (404), a task not waiting (409)', async () => {
    const bad = await tryIt({ nope: true });
    expect(bad.status).toBe(400);
    expect((bad.body as unknown as ErrorBody).error.code).toBe('INVALID_INPUT');
    const unknown = await tryIt({ message: 'x' }, 'no-such-agent');
    expect(unknown.status).toBe(404);
    expect((unknown.body as unknown as ErrorBody).error.code).toBe('AGENT_NOT_FOUND');

    const id = (await tryIt({ message: 'quick' })).body.task_id;
    await t.waitForStatus(id, 'COMPLETED');
    const notWaiting = await client.request<ErrorBody>('POST', `/api/tasks/${id}/answer`, { input: { x: 1 } });
    expect(notWaiting.status).toBe(409);
    expect(notWaiting.body.error.code).toBe('INVALID_STATE');
    const missing = await client.request<ErrorBody>('POST', '/api/tasks/no-such-task/answer', { input: {} });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('TASK_NOT_FOUND');
    expect((await client.request('POST', `/api/tasks/${id}/answer`, {})).status).toBe(400);
  });
});

describe('cancel', () => {
  it('cancels a running task (200, CANCELLED, its worker stops); again is a no-op; a finished task is 409', async () => {
    const id = (await tryIt({ message: 'long', delay_ms: 60_000 })).body.task_id;
    await t.waitForStatus(id, 'WORKING');
    const cancelled = await client.request<Task>('POST', `/api/tasks/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('CANCELLED');
    expect(t.host.store.getRecord(id)!.task.status).toBe('CANCELLED');
    const again = await client.request<Task>('POST', `/api/tasks/${id}/cancel`, {});
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('CANCELLED');

    const finished = (await tryIt({ message: 'quick' })).body.task_id;
    await t.waitForStatus(finished, 'COMPLETED');
    const refused = await client.request<ErrorBody>('POST', `/api/tasks/${finished}/cancel`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('INVALID_STATE');
    expect((await client.request('POST', `/api/tasks/${id}/cancel`, { why: 'x' })).status).toBe(400);
  });
});

describe('task detail and events', () => {
  let id = '';
  let all: TaskEvent[] = [];

  beforeAll(async () => {
    const created = await tryIt({
      message: 'detailed',
      log_lines: 1200,
      artifacts: [
        { type: 'file', filename: 'report.txt', content: 'hello report\n' },
        { type: 'text', content: 'plain words' },
        { type: 'json', content: '{"a":1}' },
        { type: 'file', filename: 'page.html', content: '<script>alert(1)</script>', mime_type: 'text/html' },
      ],
    });
    id = created.body.task_id;
    await t.waitForStatus(id, 'COMPLETED');
    all = t.host.store.listEvents(id, 0, 10_000);
  });

  it('gives the task, its agent, artifacts with absolute A2A URLs, deliveries, and the newest 500 events', async () => {
    const res = await client.get<TaskDetail>(`/api/tasks/${id}`);
    expect(res.status).toBe(200);
    const detail = res.body;
    expect(detail.task).toEqual(t.host.store.getRecord(id)!.task);
    expect(detail.agent_slug).toBe('echo');
    expect(detail.agent_url).toBe(`${t.url}/agents/echo`);
    expect(detail.deliveries).toEqual([]);
    expect(all.length).toBeGreaterThan(1200);
    expect(detail.events).toEqual(all.slice(-500));
    expect(detail.more_events_before).toBe(true);

    expect(detail.artifacts.map((a) => a.type)).toEqual(['file', 'text', 'json', 'file']);
    const file = detail.artifacts[0]!;
    expect(file.content).toBe(`${t.url}/agents/echo/artifacts/${file.artifact_id}/content`);
    expect(file.metadata).toMatchObject({ filename: 'report.txt', mime_type: 'text/plain', size: 13 });
    expect(await (await fetch(file.content)).text()).toBe('hello report\n');
    expect(detail.artifacts[1]!.content).toBe('plain words');
  });

  it('pages back through older events until the first, and reads forward after an id', async () => {
    const collected: TaskEvent[] = [];
    let before: number | undefined;
    let more = true;
    while (more) {
      const res = await client.get<TaskEventsPage>(`/api/tasks/${id}/events?limit=500${before === undefined ? '' : `&before=${before}`}`);
      expect(res.status).toBe(200);
      collected.unshift(...res.body.events);
      more = res.body.more_before;
      before = res.body.events[0]?.id;
    }
    expect(collected).toEqual(all);

    const from = all[100]!.id;
    const forward = await client.get<TaskEventsPage>(`/api/tasks/${id}/events?after=${from}&limit=10`);
    expect(forward.body.events).toEqual(all.slice(101, 111));
    expect(forward.body.more_before).toBe(true);
    const head = await client.get<TaskEventsPage>(`/api/tasks/${id}/events?after=0&limit=3`);
    expect(head.body).toEqual({ events: all.slice(0, 3), more_before: false });
  });

  it('answers 404 for an unknown task and 400 for a bad page', async () => {
    expect((await client.get<ErrorBody>('/api/tasks/nope')).body.error.code).toBe('TASK_NOT_FOUND');
    expect((await client.get(`/api/tasks/nope/events`)).status).toBe(404);
    expect((await client.get(`/api/tasks/${id}/events?limit=1001`)).status).toBe(400);
    expect((await client.get(`/api/tasks/${id}/events?before=x`)).status).toBe(400);
  });

  describe('artifacts', () => {
    it('lists every artifact newest first with its agent, task status and file path, in pages', async () => {
      const expected = t.host.db
        .prepare('SELECT artifact_id FROM artifacts ORDER BY rowid DESC')
        .all()
        .map((row) => (row as { artifact_id: string }).artifact_id);
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const res = await client.get<ArtifactListPage>(`/api/artifacts?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.status).toBe(200);
        for (const item of res.body.artifacts) {
          ids.push(item.artifact.artifact_id);
          expect(item.agent_slug).toBe('echo');
          expect(item.task_status).toBe(t.host.store.getRecord(item.artifact.task_id)!.task.status);
          if (item.artifact.type === 'file') {
            expect(item.artifact.content).toMatch(new RegExp(`^${t.url}/agents/echo/artifacts/`));
            expect(existsSync(item.path!)).toBe(true);
          } else {
            expect(item.path).toBeUndefined();
          }
        }
        cursor = res.body.next_cursor;
      } while (cursor !== undefined);
      expect(ids).toEqual(expected);
    });

    it('filters by task and by agent', async () => {
      const mine = await client.get<ArtifactListPage>(`/api/artifacts?task=${id}`);
      expect(mine.body.artifacts.map((item) => item.artifact.metadata.filename ?? item.artifact.type)).toEqual(['page.html', 'json', 'text', 'report.txt']);
      const file = mine.body.artifacts.find((item) => item.artifact.metadata.filename === 'report.txt')!;
      expect(readFileSync(file.path!, 'utf8')).toBe('hello report\n');
      expect((await client.get<ArtifactListPage>('/api/artifacts?agent=python-script')).body.artifacts).toEqual([]);
      expect((await client.get<ArtifactListPage>('/api/artifacts?agent=echo')).body.artifacts.length).toBeGreaterThanOrEqual(4);
    });

    it('serves content sandboxed and unsniffed, inline unless ?download=1, with ranges', async () => {
      const artifacts = t.host.store.listArtifacts(id).map((record) => record.artifact);
      const [report, text, json, html] = artifacts;
      const inline = await client.get(`/api/artifacts/${report!.artifact_id}/content`);
      expect(inline.status).toBe(200);
      expect(inline.text).toBe('hello report\n');
      expect(inline.headers.get('content-type')).toBe('text/plain');
      expect(inline.headers.get('content-security-policy')).toBe('sandbox');
      expect(inline.headers.get('x-content-type-options')).toBe('nosniff');
      expect(inline.headers.get('content-disposition')).toBeNull();

      const download = await client.get(`/api/artifacts/${report!.artifact_id}/content?download=1`);
      expect(download.headers.get('content-disposition')).toBe(`attachment; filename="report.txt"; filename*=UTF-8''report.txt`);

      const range = await client.request('GET', `/api/artifacts/${report!.artifact_id}/content`, undefined, { range: 'bytes=0-4' });
      expect(range.status).toBe(206);
      expect(range.text).toBe('hello');

      const page = await client.get(`/api/artifacts/${html!.artifact_id}/content`);
      expect(page.headers.get('content-type')).toBe('text/html');
      expect(page.headers.get('content-security-policy')).toBe('sandbox');

      const plain = await client.get(`/api/artifacts/${text!.artifact_id}/content`);
      expect(plain.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(plain.text).toBe('plain words');
      const data = await client.get(`/api/artifacts/${json!.artifact_id}/content?download=1`);
      expect(data.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(data.headers.get('content-disposition')).toContain(`filename="${json!.artifact_id}.json"`);
      expect(data.headers.get('content-security-policy')).toBe('sandbox');

      const missing = await client.get<ErrorBody>('/api/artifacts/nope/content');
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('ARTIFACT_NOT_FOUND');
    });
  });
});

describe('the inbox in pages', () => {
  const SEEDED = 10_000; // every 20th is waiting: 500
  const waitingIds = (): string[] =>
    (t.host.db.prepare(`SELECT task_id FROM tasks WHERE status = 'INPUT_REQUIRED' ORDER BY seq DESC`).all() as { task_id: string }[]).map((r) => r.task_id);

  beforeAll(() => {
    seedTasks(t.host.db, SEEDED, { agents: ['seed-inbox'] });
  });
  afterAll(() => {
    t.host.db.prepare(`DELETE FROM tasks WHERE agent_slug IN ('seed-inbox', 'seed-inbox-late')`).run();
  });

  it('answers the newest 50 by default, with the total and a cursor', async () => {
    const expected = waitingIds();
    expect(expected.length).toBeGreaterThanOrEqual(500);
    const res = await client.get<InboxList>('/api/inbox');
    expect(res.status, res.text).toBe(200);
    expect(res.body.total).toBe(expected.length);
    expect(res.body.items.map((i) => i.task.task_id)).toEqual(expected.slice(0, 50));
    expect(res.body.next_cursor).toEqual(expect.any(String));
    // The seeded agent is not loaded: it is named by its slug.
    expect(res.body.items[0]).toMatchObject({ agent_slug: 'seed-inbox', agent_display_name: 'seed-inbox', task: { status: 'INPUT_REQUIRED' } });
    expect(res.body.items[0]!.task.prompt).toMatch(/^Which colour for task \d+\?$/);
  });

  it('pages through every waiting task newest first, without duplicates or gaps', async () => {
    const expected = waitingIds();
    for (const limit of [37, 200]) {
      const ids: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const res = await client.get<InboxList>(`/api/inbox?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.status, res.text).toBe(200);
        expect(res.body.total).toBe(expected.length);
        expect(res.body.items.length).toBeLessThanOrEqual(limit);
        ids.push(...res.body.items.map((i) => i.task.task_id));
        cursor = res.body.next_cursor;
        pages++;
      } while (cursor !== undefined && pages < 100);
      expect(cursor).toBeUndefined();
      expect(pages).toBe(Math.ceil(expected.length / limit));
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(expected);
    }
  });

  it('stays exact while tasks start and stop waiting between pages (keyset)', async () => {
    const before = waitingIds();
    const first = await client.get<InboxList>('/api/inbox?limit=100');
    // New questions arrive (newer than every page) and one on the next page is answered elsewhere.
    seedTasks(t.host.db, 40, { startMs: Date.now(), agents: ['seed-inbox-late'] });
    const gone = before[150]!;
    t.host.db.prepare(`UPDATE tasks SET status = 'WORKING', prompt = NULL WHERE task_id = ?`).run(gone);
    const second = await client.get<InboxList>(`/api/inbox?limit=100&cursor=${first.body.next_cursor}`);
    expect(second.body.total).toBe(before.length + 2 - 1);
    expect(second.body.items.map((i) => i.task.task_id)).toEqual(before.slice(100, 201).filter((id) => id !== gone));
    t.host.db.prepare(`UPDATE tasks SET status = 'INPUT_REQUIRED', prompt = 'Back?' WHERE task_id = ?`).run(gone);
  });

  it('answers a short list whole, and refuses a bad limit or a made-up cursor (400)', async () => {
    const all = await client.get<InboxList>('/api/inbox?limit=200');
    expect(all.body.items).toHaveLength(200);
    for (const query of ['limit=0', 'limit=201', 'limit=x', 'limit=-1', 'cursor=bm9wZQ', 'cursor=%21']) {
      const res = await client.get<ErrorBody>(`/api/inbox?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
    }
    t.host.db.prepare(`DELETE FROM tasks WHERE agent_slug IN ('seed-inbox', 'seed-inbox-late')`).run();
    const short = await client.get<InboxList>('/api/inbox');
    expect(short.body.next_cursor).toBeUndefined();
    expect(short.body.total).toBe(short.body.items.length);
    expect(short.body.items.map((i) => i.task.task_id)).toEqual(waitingIds());
  });
});
