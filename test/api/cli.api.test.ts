import { createServer } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Task } from '../../build/main/shared/protocol.js';
import { LAUNCHER, pollTask, runCli, type CliProcess } from '../support/cli-process.js';
import { makeTempDir } from '../support/temp-dir.js';
import { startTestHost } from '../support/test-host.js';

let tmp: ReturnType<typeof makeTempDir>;
const running: CliProcess[] = [];
beforeEach(() => {
  tmp = makeTempDir();
});
afterEach(async () => {
  for (const p of running.splice(0)) {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await p.exited;
  }
  tmp.cleanup();
});

function startHeadless(extra: string[] = []): CliProcess {
  const p = runCli(['--headless', '--port', '0', '--control-port', '0', '--data-dir', tmp.dir, '--log-level', 'silent', ...extra]);
  running.push(p);
  return p;
}

const createTask = async (url: string, slug: string, input: Record<string, unknown>): Promise<Task> => {
  const res = await fetch(`${url}/agents/${slug}/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input }) });
  expect(res.status).toBe(202);
  return (await res.json()) as Task;
};

describe('agent-host --headless', () => {
  it('logs where it listens, serves the API, and shuts down cleanly on SIGTERM', async () => {
    const p = startHeadless();
    const [, url] = await p.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    // The start-up lines may arrive in several chunks: the last one says how to stop.
    await p.waitForOutput(/Press Ctrl\+C to stop\./);
    expect(p.stdout()).toContain(`${url}/agents/echo`);
    const res = await fetch(`${url}/agents`);
    expect(res.status).toBe(200);
    const long = await createTask(url!, 'echo', { message: 'x', delay_ms: 60_000 });
    await pollTask<Task>(`${url}/agents/echo/tasks/${long.task_id}`, (t) => t.status === 'WORKING');
    p.child.kill('SIGTERM');
    expect(await p.exited).toEqual({ code: 0, signal: null });
    expect(p.stdout()).toContain('Agent Host stopped.');
    // The running task saw the cancel signal and was closed off, not left WORKING.
    const after = await startTestHost({ dataDir: tmp.dir });
    try {
      expect(after.host.store.getRecord(long.task_id)?.task).toMatchObject({ status: 'FAILED', error: { code: 'HOST_SHUTDOWN' } });
    } finally {
      await after.stop();
    }
  });

  it('recovers after a crash: WORKING fails, SUBMITTED runs, INPUT_REQUIRED can still be answered', async () => {
    writeFileSync(join(tmp.dir, 'config.json'), JSON.stringify({ agents: { echo: { concurrency: 1 } } }));
    const p = startHeadless();
    const [, url] = await p.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const asking = await createTask(url!, 'echo', { message: 'ask', ask: 'Name?' });
    await pollTask<Task>(`${url}/agents/echo/tasks/${asking.task_id}`, (t) => t.status === 'INPUT_REQUIRED');
    const working = await createTask(url!, 'echo', { message: 'long', delay_ms: 60_000 });
    await pollTask<Task>(`${url}/agents/echo/tasks/${working.task_id}`, (t) => t.status === 'WORKING');
    const queued = await createTask(url!, 'echo', { message: 'queued' });
    expect((await pollTask<Task>(`${url}/agents/echo/tasks/${queued.task_id}`, () => true)).status).toBe('SUBMITTED');

    p.child.kill('SIGKILL');
    await p.exited;

    const t = await startTestHost({ dataDir: tmp.dir });
    try {
      expect(t.host.store.getRecord(working.task_id)?.task).toMatchObject({ status: 'FAILED', error: { code: 'HOST_RESTARTED', message: expect.any(String) } });
      await t.waitForStatus(queued.task_id, 'COMPLETED');
      const waiting = (await t.request<Task>('GET', `/agents/echo/tasks/${asking.task_id}`)).body;
      expect(waiting).toMatchObject({ status: 'INPUT_REQUIRED', prompt: 'Name?' });
      const answered = await t.request<Task>('POST', `/agents/echo/tasks/${asking.task_id}/input`, { input: { name: 'Ada' } });
      expect(answered.status).toBe(200);
      const done = await t.waitForStatus(asking.task_id, 'COMPLETED');
      expect(done.output).toEqual({ message: 'ask', answer: { name: 'Ada' } });
    } finally {
      await t.cleanup();
    }
  });

  it('refuses a malformed config.json with one line naming the file and the problem, and stores nothing', async () => {
    writeFileSync(join(tmp.dir, 'config.json'), '{"server": {"port": "80"}}');
    const p = startHeadless();
    const exit = await p.exited;
    expect(exit.code).toBe(1);
    expect(p.stderr()).toContain(join(tmp.dir, 'config.json'));
    expect(p.stderr()).toContain('/server/port must be integer');
  });

  it('says clearly when the port is already in use', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const p = runCli(['--headless', '--port', String(port), '--control-port', '0', '--data-dir', tmp.dir, '--log-level', 'silent']);
      running.push(p);
      expect((await p.exited).code).toBe(1);
      expect(p.stderr()).toMatch(new RegExp(`port 127\\.0\\.0\\.1:${port} is already in use`));
    } finally {
      blocker.close();
    }
  });

  it('prints usage and exits 2 on a bad flag', async () => {
    const p = runCli(['--port', 'seventy']);
    running.push(p);
    expect((await p.exited).code).toBe(2);
    expect(p.stderr()).toContain('--port must be a number');
    expect(p.stderr()).toContain('Usage:');
  });

  it('creates, lists and revokes tokens', async () => {
    const create = runCli(['tokens', 'create', '--name', 'ci', '--data-dir', tmp.dir]);
    running.push(create);
    expect((await create.exited).code).toBe(0);
    const token = create.stdout().split('\n').find((l) => l.startsWith('ah_'));
    expect(token).toBeDefined();
    const id = create.stdout().match(/Token (\S+) \(ci\) created/)![1]!;
    const list = runCli(['tokens', 'list', '--data-dir', tmp.dir]);
    running.push(list);
    await list.exited;
    expect(list.stdout()).toContain(id);
    expect(list.stdout()).not.toContain(token!);
    const revoke = runCli(['tokens', 'revoke', id, '--data-dir', tmp.dir]);
    running.push(revoke);
    expect((await revoke.exited).code).toBe(0);
    const again = runCli(['tokens', 'revoke', id, '--data-dir', tmp.dir]);
    running.push(again);
    expect((await again.exited).code).toBe(1);
  });
});

describe('npm start', () => {
  it('falls back to headless where Electron is absent, saying why in one line', async () => {
    // The Electron binary cannot exist on this machine; the launcher must notice without trying to download it.
    const p = runCli(['--port', '0', '--control-port', '0', '--data-dir', tmp.dir, '--log-level', 'silent'], LAUNCHER, { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: '' });
    running.push(p);
    const [line] = await p.waitForOutput(/^Starting headless: .+\.$/m);
    expect(line).toMatch(/Electron|desktop shell/);
    await p.waitForOutput(/listening on http/);
    p.child.kill('SIGINT');
    expect((await p.exited).code).toBe(0);
  });
});
