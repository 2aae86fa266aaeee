/**
 * retention_days: finished tasks older than N days go, with their events, artifact rows and
 * folders, and webhook deliveries; open tasks, recent ones and ones still being delivered stay.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SettingsInfo, TaskListPage } from '../../build/main/shared/control-api.js';
import type { TaskStatus } from '../../build/main/shared/protocol.js';
import type { TestHost } from '../support/test-host.js';
import { startTestHost } from '../support/test-host.js';
import { makeTempDir } from '../support/temp-dir.js';

const DAY = 24 * 60 * 60 * 1000;
const AGENT_ID = '00000000-0000-4000-8000-000000000002';

interface Seeded {
  id: string;
  dir: string;
}

/**
 * A task of an agent that is not loaded, taken through the store to `status` with a log, a file
 * artifact on disk and (optionally) a webhook delivery, then dated `ageDays` back.
 */
function seedTask(t: TestHost, status: TaskStatus, ageDays: number, options: { logLines?: number; delivery?: 'delivered' | 'pending' } = {}): Seeded {
  const { store, db, layout } = t.host;
  const { task } = store.createTask({ agentSlug: 'archived', agentId: AGENT_ID, input: { message: `aged ${ageDays}` } });
  const id = task.task_id;
  store.transition(id, 'WORKING');
  const dir = join(layout.artifacts, id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'report.txt'), 'report\n');
  store.addArtifact({ taskId: id, type: 'file', filePath: `${id}/report.txt`, filename: 'report.txt', mimeType: 'text/plain', size: 7 });
  for (let done = 0; done < (options.logLines ?? 3); done += 1000) {
    const count = Math.min(1000, (options.logLines ?? 3) - done);
    store.appendLogs(id, Array.from({ length: count }, (_, i) => ({ level: 'INFO' as const, message: `line ${done + i}` })));
  }
  if (status === 'INPUT_REQUIRED') store.requestInput(id, 'Still there?');
  else if (status === 'FAILED') store.transition(id, 'FAILED', { error: { code: 'AGENT_ERROR', message: 'broke' } });
  else if (status !== 'WORKING') store.transition(id, status, status === 'COMPLETED' ? { output: { ok: true } } : {});
  if (options.delivery) {
    const event = store.lastStatusEventId(id)!;
    const now = new Date().toISOString();
    const info = db
      .prepare(
        `INSERT INTO deliveries (task_id, status_event_id, endpoint_url, webhook_id, payload, state, attempts, next_attempt_at, created_at)
         VALUES (?, ?, 'http://127.0.0.1:9/hook', ?, '{}', ?, 1, ?, ?)`,
      )
      .run(id, event, `msg_${id}`, options.delivery, options.delivery === 'pending' ? '2999-01-01T00:00:00.000Z' : null, now);
    db.prepare(`INSERT INTO delivery_attempts (delivery_id, attempt, started_at, finished_at, status_code) VALUES (?, 1, ?, ?, 500)`).run(info.lastInsertRowid, now, now);
  }
  const at = new Date(Date.now() - ageDays * DAY).toISOString();
  db.prepare('UPDATE tasks SET created_at = ?, updated_at = ? WHERE task_id = ?').run(at, at, id);
  return { id, dir };
}

function rowsOf(t: TestHost, id: string): Record<string, number> {
  const count = (sql: string): number => (t.host.db.prepare(sql).get(id) as { n: number }).n;
  return {
    tasks: count('SELECT COUNT(*) AS n FROM tasks WHERE task_id = ?'),
    events: count('SELECT COUNT(*) AS n FROM task_events WHERE task_id = ?'),
    artifacts: count('SELECT COUNT(*) AS n FROM artifacts WHERE task_id = ?'),
    deliveries: count('SELECT COUNT(*) AS n FROM deliveries WHERE task_id = ?'),
    attempts: count('SELECT COUNT(*) AS n FROM delivery_attempts WHERE delivery_id IN (SELECT id FROM deliveries WHERE task_id = ?)'),
    search: count('SELECT COUNT(*) AS n FROM task_search WHERE seq = (SELECT seq FROM tasks WHERE task_id = ?)'),
  };
}

const GONE = { tasks: 0, events: 0, artifacts: 0, deliveries: 0, attempts: 0, search: 0 };

describe('retention', () => {
  let t: TestHost;
  let expired: Seeded[];
  let kept: Seeded[];

  beforeAll(async () => {
    t = await startTestHost({ pluginDirs: [] });
    expired = [
      seedTask(t, 'COMPLETED', 40, { delivery: 'delivered' }),
      seedTask(t, 'FAILED', 31),
      seedTask(t, 'CANCELLED', 400),
      seedTask(t, 'COMPLETED', 35, { logLines: 12_000 }),
    ];
    kept = [
      seedTask(t, 'COMPLETED', 29),
      seedTask(t, 'INPUT_REQUIRED', 90),
      seedTask(t, 'WORKING', 90),
      seedTask(t, 'FAILED', 60, { delivery: 'pending' }),
    ];
  }, 60_000);

  afterAll(async () => {
    await t.cleanup();
  });

  it('keeps everything while retention_days is 0 (the default)', async () => {
    expect(await t.host.retention.runNow()).toBe(0);
    for (const task of [...expired, ...kept]) expect(rowsOf(t, task.id).tasks).toBe(1);
  });

  it('deletes finished tasks older than the period, with their rows and files, once it is set', async () => {
    const client = await t.controlSession();
    const res = await client.request<SettingsInfo>('PATCH', '/api/settings', { retention_days: 30 });
    expect(res.body.retention_days).toBe(30);
    // The change started a pass; this one runs after it, and finds nothing left.
    expect(await t.host.retention.runNow()).toBe(0);

    for (const task of expired) {
      expect(rowsOf(t, task.id), task.id).toEqual(GONE);
      expect(existsSync(task.dir)).toBe(false);
    }
    for (const task of kept) {
      expect(rowsOf(t, task.id).tasks, task.id).toBe(1);
      expect(rowsOf(t, task.id).artifacts).toBe(1);
      expect(existsSync(join(task.dir, 'report.txt'))).toBe(true);
    }
    const list = await client.get<TaskListPage>('/api/tasks?agent=archived');
    expect(list.body.tasks.map((task) => task.task_id).sort()).toEqual(kept.map((task) => task.id).sort());
    expect(list.body.total).toBe(kept.length);
  });

  it('runs at start too', async () => {
    const data = makeTempDir();
    try {
      const first = await startTestHost({ dataDir: data.dir, pluginDirs: [] });
      const old = seedTask(first, 'COMPLETED', 10);
      const fresh = seedTask(first, 'COMPLETED', 1);
      await first.stop();
      const second = await startTestHost({ dataDir: data.dir, pluginDirs: [], config: { retention_days: 7 } });
      try {
        await expect.poll(() => rowsOf(second, old.id).tasks, { timeout: 10_000 }).toBe(0);
        expect(existsSync(old.dir)).toBe(false);
        expect(rowsOf(second, fresh.id).tasks).toBe(1);
      } finally {
        await second.stop();
      }
    } finally {
      data.cleanup();
    }
  });
});
