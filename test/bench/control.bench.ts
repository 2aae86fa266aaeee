/**
 * The control API's task list over 100,000 tasks (real host, real SQLite file, HTTP on loopback):
 * paging, filters and search. Run with `npm run bench`; results go in the README.
 */
import { afterAll, beforeAll, bench, describe } from 'vitest';
import type { TaskListPage } from '../../build/main/shared/control-api.js';
import type { ControlClient } from '../support/control-client.js';
import { seedTasks } from '../support/seed-tasks.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

let t: TestHost;
let client: ControlClient;
let middleCursor = '';
let searchCursor = '';
let someTaskId = '';

async function list(query: string): Promise<TaskListPage> {
  const res = await client.get<TaskListPage>(`/api/tasks?${query}`);
  if (res.status !== 200) throw new Error(`GET /api/tasks?${query} answered ${res.status}: ${res.text}`);
  return res.body;
}

beforeAll(async () => {
  t = await startTestHost({ pluginDirs: [] });
  seedTasks(t.host.db, 100_000);
  client = await t.controlSession();
  const seq = 50_000;
  middleCursor = Buffer.from(String(seq)).toString('base64url');
  searchCursor = (await list('q=invoice&limit=100')).next_cursor!;
  someTaskId = (await list('limit=1')).tasks[0]!.task_id;
}, 120_000);

afterAll(async () => {
  await t.cleanup();
});

const options = { time: 2000 };

describe('GET /api/tasks, 100,000 tasks, 100 per page', () => {
  bench('first page, no filter', async () => void (await list('limit=100')), options);
  bench('a page in the middle (cursor)', async () => void (await list(`limit=100&cursor=${middleCursor}`)), options);
  bench('status=FAILED,CANCELLED', async () => void (await list('status=FAILED,CANCELLED&limit=100')), options);
  bench('agent + status (INPUT_REQUIRED of one agent)', async () => void (await list('agent=seed-beta&status=INPUT_REQUIRED&limit=100')), options);
  bench('search, common word (10% of rows)', async () => void (await list('q=invoice&limit=100')), options);
  bench('search, common word, second page (total counted)', async () => void (await list(`q=invoice&limit=100&cursor=${searchCursor}`)), options);
  bench('search, one match (full scan)', async () => void (await list('q=task%2099999%20')), options);
  bench('search, no match (full scan)', async () => void (await list('q=zzzz-nothing')), options);
  bench('search + status filter', async () => void (await list('q=weather&status=FAILED&limit=100')), options);
});

describe('prompt feed (the tray menu), 100,000 tasks of which 5,000 wait', () => {
  bench('prompts.waiting(8): newest eight and the total', () => {
    if (t.host.prompts.waiting(8).total === 0) throw new Error('the seed has no waiting tasks');
  }, options);
});

describe('GET /api/tasks/{id}', () => {
  bench('task detail', async () => {
    const res = await client.get(`/api/tasks/${someTaskId}`);
    if (res.status !== 200) throw new Error(`detail answered ${res.status}`);
  }, options);
});
