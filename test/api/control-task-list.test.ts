/**
 * GET /api/tasks over 100,000 tasks: keyset paging newest first, filters, search and totals. The
 * expected answers are computed here from the rows themselves, independently of the SQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskListPage, TaskSummary } from '../../build/main/shared/control-api.js';
import type { ErrorBody } from '../../build/main/shared/protocol.js';
import type { ControlClient } from '../support/control-client.js';
import { SEED_AGENTS, seedTasks } from '../support/seed-tasks.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

const COUNT = 100_000;

interface Row {
  seq: number;
  task_id: string;
  agent_slug: string;
  status: string;
  input: string;
  prompt: string | null;
  error_code: string | null;
  error_message: string | null;
}

let t: TestHost;
let client: ControlClient;
/** Every task, newest first. */
let rows: Row[];

beforeAll(async () => {
  t = await startTestHost({ pluginDirs: [] });
  seedTasks(t.host.db, COUNT);
  rows = t.host.db.prepare('SELECT seq, task_id, agent_slug, status, input, prompt, error_code, error_message FROM tasks ORDER BY seq DESC').all() as Row[];
  client = await t.controlSession();
}, 120_000);

afterAll(async () => {
  await t.cleanup();
});

/** What the search promises: a substring (ASCII case-insensitive) of id, input, prompt or error. */
function matches(row: Row, q: string): boolean {
  const needle = q.toLowerCase();
  const asJson = JSON.stringify(q).slice(1, -1).toLowerCase();
  return [row.task_id, row.input, row.prompt ?? '', row.error_code ?? '', row.error_message ?? ''].some((field) => {
    const text = field.toLowerCase();
    return text.includes(needle) || text.includes(asJson);
  });
}

/** Follows next_cursor to the end; checks every page's total. */
async function pageThrough(query: string, limit: number): Promise<{ ids: string[]; pages: TaskListPage[] }> {
  const ids: string[] = [];
  const pages: TaskListPage[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const sep = query === '' ? '' : '&';
    const res = await client.get<TaskListPage>(`/api/tasks?${query}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status, res.text).toBe(200);
    pages.push(res.body);
    ids.push(...res.body.tasks.map((task) => task.task_id));
    cursor = res.body.next_cursor;
    if (cursor === undefined) return { ids, pages };
    expect(res.body.tasks).toHaveLength(limit);
  }
  throw new Error('paging did not end');
}

describe('paging', () => {
  it('pages through all 100,000 tasks newest first, without duplicates or gaps', async () => {
    const { ids, pages } = await pageThrough('', 500);
    expect(pages).toHaveLength(COUNT / 500);
    expect(ids).toEqual(rows.map((row) => row.task_id));
    for (const page of pages) expect(page.total).toBe(COUNT);
  }, 120_000);

  it('shows each row as a small summary', async () => {
    const res = await client.get<TaskListPage>('/api/tasks?limit=20');
    const byId = new Map(rows.map((row) => [row.task_id, row]));
    for (const summary of res.body.tasks) {
      const row = byId.get(summary.task_id)!;
      const expected: TaskSummary = {
        task_id: row.task_id,
        agent_slug: row.agent_slug,
        status: row.status as TaskSummary['status'],
        created_at: expect.any(String) as unknown as string,
        updated_at: expect.any(String) as unknown as string,
        input_preview: row.input.slice(0, 160),
      };
      if (row.status === 'INPUT_REQUIRED') expected.prompt = row.prompt!;
      if (row.error_code !== null) expected.error_code = row.error_code;
      expect(summary).toEqual(expected);
    }
  });

  it('stays exact while new tasks arrive between pages (keyset, not offset)', async () => {
    const first = await client.get<TaskListPage>('/api/tasks?status=FAILED&limit=100');
    const expected = rows.filter((row) => row.status === 'FAILED').map((row) => row.task_id);
    seedTasks(t.host.db, 40, { startMs: Date.now(), agents: ['seed-late'] });
    const ids = first.body.tasks.map((task) => task.task_id);
    let cursor = first.body.next_cursor;
    while (cursor !== undefined) {
      const page = await client.get<TaskListPage>(`/api/tasks?status=FAILED&limit=500&cursor=${cursor}`);
      ids.push(...page.body.tasks.map((task) => task.task_id));
      cursor = page.body.next_cursor;
    }
    expect(ids).toEqual(expected);
    const late = await client.get<TaskListPage>('/api/tasks?agent=seed-late&status=FAILED');
    expect(late.body.total).toBe(4);
    t.host.db.prepare(`DELETE FROM tasks WHERE agent_slug = 'seed-late'`).run();
  });
});

describe('filters', () => {
  it('takes repeated status keys and comma lists alike (any of)', async () => {
    const expected = rows.filter((row) => row.status === 'FAILED' || row.status === 'CANCELLED').map((row) => row.task_id);
    const repeated = await pageThrough('status=FAILED&status=CANCELLED', 500);
    expect(repeated.ids).toEqual(expected);
    expect(repeated.pages[0]!.total).toBe(expected.length);
    const comma = await pageThrough('status=FAILED,CANCELLED', 500);
    expect(comma.ids).toEqual(expected);
  });

  it('combines agents and statuses', async () => {
    const agents: string[] = [SEED_AGENTS[1], SEED_AGENTS[2]];
    const statuses = ['INPUT_REQUIRED', 'FAILED'];
    const expected = rows.filter((row) => agents.includes(row.agent_slug) && statuses.includes(row.status)).map((row) => row.task_id);
    // Some rows are left out by each filter, so both are really applied.
    expect(rows.some((row) => agents.includes(row.agent_slug) && !statuses.includes(row.status))).toBe(true);
    expect(rows.some((row) => !agents.includes(row.agent_slug) && statuses.includes(row.status))).toBe(true);
    const { ids, pages } = await pageThrough(`agent=${agents.join(',')}&status=${statuses[0]}&status=${statuses[1]}`, 500);
    expect(ids).toEqual(expected);
    expect(pages[0]!.total).toBe(expected.length);
    expect(expected.length).toBeGreaterThan(500);
  });

  it('refuses an unknown status, a bad limit and a made-up cursor (400)', async () => {
    for (const query of ['status=DONE', 'status=FAILED,nope', 'limit=0', 'limit=501', 'limit=ten', 'cursor=abc', `cursor=${Buffer.from('-5').toString('base64url')}`]) {
      const res = await client.get<ErrorBody>(`/api/tasks?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
    }
  });
});

describe('search', () => {
  const cases: Array<[label: string, q: string, extra?: string]> = [
    ['a common word in the input', 'invoice'],
    ['any case', 'INVOICE AND'],
    ['a % literally, not as a wildcard', '50%'],
    ['an _ literally', 'off_s'],
    ['quotes, which the stored JSON escapes', '"quoted"'],
    ['the prompt', 'colour for task 17'],
    ['the error message', 'reach host number 41'],
    // Filters that leave fewer than 20,000 tasks are read first, broader ones after the search.
    ['the error code, with a narrow status filter', 'agent_error', 'status=FAILED'],
    ['a word, with a broad status filter', 'ledger', 'status=COMPLETED'],
    ['a word, with an agent and a status filter', 'invoice', 'agent=seed-alpha&status=COMPLETED,CANCELLED'],
  ];
  for (const [label, q, extra] of cases) {
    it(`finds ${label}`, async () => {
      const params = new URLSearchParams(extra ?? '');
      const statuses = params.get('status')?.split(',');
      const agents = params.get('agent')?.split(',');
      const expected = rows
        .filter((row) => matches(row, q) && (statuses === undefined || statuses.includes(row.status)) && (agents === undefined || agents.includes(row.agent_slug)))
        .map((row) => row.task_id);
      expect(expected.length).toBeGreaterThan(0);
      const { ids, pages } = await pageThrough(`q=${encodeURIComponent(q)}${extra ? `&${extra}` : ''}`, 500);
      expect(ids).toEqual(expected);
      for (const page of pages) expect(page.total).toBe(expected.length);
    }, 60_000);
  }

  it('finds a task by the start of its id', async () => {
    const target = rows[12_345]!;
    const res = await client.get<TaskListPage>(`/api/tasks?q=${target.task_id.slice(0, 13)}`);
    expect(res.body.tasks.map((task) => task.task_id)).toContain(target.task_id);
    expect(res.body.total).toBe(rows.filter((row) => matches(row, target.task_id.slice(0, 13))).length);
  });

  it('answers an empty page when nothing matches', async () => {
    const res = await client.get<TaskListPage>('/api/tasks?q=zzzz-nothing-like-this');
    expect(res.body).toEqual({ tasks: [], total: 0 });
  });
});
