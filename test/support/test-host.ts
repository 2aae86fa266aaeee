import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHost, type RunningHost } from '../../build/main/core/host.js';
import { createLogger, type Logger } from '../../build/main/core/logger.js';
import type { Task, TaskStatus } from '../../build/main/shared/protocol.js';
import { ControlClient } from './control-client.js';
import { fetchJson, type JsonResponse } from './fetch-json.js';
import { makeTempDir } from './temp-dir.js';

export type { JsonResponse };

export const FIXTURE_PLUGINS = fileURLToPath(new URL('../fixtures/plugins', import.meta.url));
export const ISO_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

export interface TestHostOptions {
  /** Written to <data-dir>/config.json before start; the port is forced to 0 unless given. */
  config?: Record<string, unknown>;
  pluginDirs?: string[];
  /** Reuse a data dir (restart tests); otherwise a fresh temp dir. */
  dataDir?: string;
  /** Defaults to a silent logger. */
  logger?: Logger;
  /** The renderer build the control listener serves (default: build/renderer/). */
  uiDir?: string;
}


export interface TestHost {
  host: RunningHost;
  url: string;
  dataDir: string;
  request<T = unknown>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<JsonResponse<T>>;
  /** `http://127.0.0.1:PORT` of the control API. */
  controlUrl: string;
  /** Signs in to the control API with a fresh one-time token, as the UI does. */
  controlSession(): Promise<ControlClient>;
  /** `controlUrl/?token=…` with a fresh one-time token: the link `agent-host --headless` prints. */
  controlLoginUrl(): string;
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
  const config = {
    ...options.config,
    server: { port: 0, ...(options.config?.['server'] as object | undefined) },
    control: { port: 0, ...(options.config?.['control'] as object | undefined) },
  };
  writeFileSync(join(dataDir, 'config.json'), JSON.stringify(config));
  const host = await startHost({
    dataDir,
    pluginDirs: options.pluginDirs ?? [FIXTURE_PLUGINS],
    logger: options.logger ?? createLogger('silent'),
    ...(options.uiDir !== undefined ? { uiDir: options.uiDir } : {}),
  });
  const url = host.url;
  let stopped = false;

  const request = <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonResponse<T>> =>
    fetchJson<T>(method, `${url}${path}`, body, headers);

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
    controlUrl: host.controlUrl,
    controlSession: () => ControlClient.signIn(host.controlUrl, host.mintSessionToken()),
    controlLoginUrl: () => `${host.controlUrl}/?token=${encodeURIComponent(host.mintSessionToken())}`,
    waitForTask,
    waitForStatus: (taskId, status, timeoutMs) => waitForTask(taskId, (t) => t.status === status, timeoutMs),
    stop,
    cleanup: async () => {
      await stop();
      temp?.cleanup();
    },
  };
}
