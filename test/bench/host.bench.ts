/**
 * Throughput and latency of the host core, measured against a real host (real SQLite file, real
 * worker processes, real HTTP on loopback). Run with `npm run bench`; results go in the README.
 */
import { afterAll, beforeAll, bench, describe } from 'vitest';
import type { Task } from '../../build/main/shared/protocol.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

let t: TestHost;
let blockerId = '';
let readId = '';

beforeAll(async () => {
  // echo runs one task at a time here; the first never ends, so later creates stay SUBMITTED and
  // the create benchmark measures the API and the store, not worker start-up.
  t = await startTestHost({ config: { agents: { echo: { concurrency: 1 } }, runtime: { cancel_grace_ms: 100, shutdown_grace_ms: 500 } } });
  blockerId = (await t.request<Task>('POST', '/agents/echo/tasks', { input: { message: 'block', delay_ms: 600000 } })).body.task_id;
  await t.waitForStatus(blockerId, 'WORKING');
  readId = (await t.request<Task>('POST', '/agents/echo/tasks', { input: { message: 'read me' } })).body.task_id;
});

afterAll(async () => {
  await t.cleanup();
});

describe('A2A API', () => {
  bench('POST /tasks (validated, committed, queued)', async () => {
    const res = await fetch(`${t.url}/agents/echo/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"input":{"message":"bench","log_lines":3}}',
    });
    if (res.status !== 202) throw new Error(`create answered ${res.status}`);
    await res.arrayBuffer();
  }, { time: 3000 });

  bench('GET /tasks/{id}', async () => {
    const res = await fetch(`${t.url}/agents/echo/tasks/${readId}`);
    if (res.status !== 200) throw new Error(`get answered ${res.status}`);
    await res.arrayBuffer();
  }, { time: 3000 });
});

describe('task execution', () => {
  bench('python-script task, create to COMPLETED (one worker process each)', async () => {
    const res = await t.request<Task>('POST', '/agents/python-script/tasks', { input: { topic: 'sum a csv column', filename: 'bench.py' } });
    await t.waitForStatus(res.body.task_id, 'COMPLETED');
  }, { time: 5000, iterations: 10 });
});
