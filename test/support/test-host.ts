import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHost, type RunningHost } from '../../build/main/core/host.js';
import { createLogger } from '../../build/main/core/logger.js';
import type { Task, TaskStatus } from '../../build/main/shared/protocol.js';
import { makeTempDir } from './temp-dir.js';

export const FIXTURE_PLUGINS = fileURLToPath(new URL('../fixtures/plugins', import.meta.url));
export const ISO_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

export interface TestHostOptions {
  /** Written to <data-dir>/config.json before start; the port is forced to 0 unless given. */
  config?: Record<string, unknown>;
  pluginDirs?: string[];
  /** Reuse a data dir (restart tests); otherwise a fresh temp dir. */
  dataDir?: string;
}

export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestHost {
  host: RunningHost;
  url: string;
  dataDir: string;
  request<T = unknown>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<JsonResponse<T>>;
  /** Resolves with the task once `predicate` holds, checked on every committed event (no polling). */
  waitForTask(taskId: string, predicate: (task: Task) => boolean, timeoutMs?: number): Promise<Task>;
  waitForStatus(taskId: string, status: TaskStatus, timeoutMs?: number): Promise<Task>;
  stop(): Promise<void>;
  /** Stops the host and removes its data dir (unless the test passed its own). */
  cleanup(): Promise<void>;
}

/** A real host: real SQLite file in a temp dir, real worker processes, listening on an ephemeral port. */
export async function startTestHost(options: TestHostOptions = {}): Promise<TestHost> {
  const temp = options.dataDir ? undefined : makeTempDir();
  const dataDir = options.dataDir ?? temp!.dir;
  mkdirSync(dataDir, { recursive: true });
  const config = { ...options.config, server: { port: 0, ...(options.config?.['server'] as object | undefined) } };
  writeFileSync(join(dataDir, 'config.json'), JSON.stringify(config));
  const host = await startHost({ dataDir, pluginDirs: options.pluginDirs ?? [FIXTURE_PLUGINS], logger: createLogger('silent') });
  const url = host.url;
  let stopped = false;

  const request = async <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonResponse<T>> => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${url}${path}`, init);
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  };

  const waitForTask = (taskId: string, predicate: (task: Task) => boolean, timeoutMs = 20_000): Promise<Task> =>
    new Promise<Task>((resolve, reject) => {
      const check = (): boolean => {
        const task = host.store.getRecord(taskId)?.task;
        if (task && predicate(task)) {
          finish();
          resolve(task);
          return true;
        }
        return false;
      };
      const unsubscribe = host.store.onEvent((event) => {
        if (event.task_id === taskId) check();
      });
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`task ${taskId} did not reach the expected state in ${timeoutMs} ms; it is ${JSON.stringify(host.store.getRecord(taskId)?.task)}`));
      }, timeoutMs);
      const finish = (): void => {
        clearTimeout(timer);
        unsubscribe();
      };
      check();
    });

  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await host.close();
  };

  return {
    host,
    url,
    dataDir,
    request,
    waitForTask,
    waitForStatus: (taskId, status, timeoutMs) => waitForTask(taskId, (t) => t.status === status, timeoutMs),
    stop,
    cleanup: async () => {
      await stop();
      temp?.cleanup();
    },
  };
}
