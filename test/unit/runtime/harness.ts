/**
 * Shared set-up for the runtime tests: a real SQLite store in a temp dir, the real TaskService,
 * an AgentRuntime with small grace periods, and LoadedAgent objects built straight from the
 * fixture plugins (the loader is tested on its own).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino, type Logger } from 'pino';
import type { AgentDirectory, LoadedAgent } from '../../../build/main/core/agents/loaded-agent.js';
import { compileSchema } from '../../../build/main/core/agents/schema-validation.js';
import type { HostConfig } from '../../../build/main/core/config/host-config.js';
import { AgentRuntime } from '../../../build/main/core/runtime/agent-runtime.js';
import { openDatabase, type Db } from '../../../build/main/core/store/database.js';
import { TaskStore } from '../../../build/main/core/store/task-store.js';
import { TaskService } from '../../../build/main/core/tasks/task-service.js';
import type { AgentManifest } from '../../../build/main/shared/plugin-api.js';
import type { JsonObject, LogLevel, Task, TaskEvent, TaskStatus } from '../../../build/main/shared/protocol.js';
import { makeTempDir } from '../../support/temp-dir.js';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/plugins/', import.meta.url));

export const TEST_RUNTIME: HostConfig['runtime'] = {
  cancel_grace_ms: 300,
  shutdown_grace_ms: 1000,
  worker_memory_mb: 256,
};

export interface AgentOverrides {
  manifest?: Partial<AgentManifest>;
  enabled?: boolean;
  concurrency?: number;
  dir?: string;
  entryPath?: string;
}

function buildAgent(manifest: AgentManifest, dir: string, overrides: AgentOverrides): LoadedAgent {
  const merged: AgentManifest = { ...manifest, ...overrides.manifest };
  const agent: LoadedAgent = {
    slug: merged.slug,
    manifest: merged,
    dir: overrides.dir ?? dir,
    entryPath: overrides.entryPath ?? path.join(dir, merged.entry),
    source: 'cli',
    agentId: randomUUID(),
    enabled: overrides.enabled ?? true,
    concurrency: overrides.concurrency ?? merged.concurrency ?? 1,
    validateInput: compileSchema(merged.input_schema),
  };
  if (merged.output_schema) agent.validateOutput = compileSchema(merged.output_schema);
  return agent;
}

/** A LoadedAgent for `test/fixtures/plugins/<name>`, with optional manifest/agent overrides. */
export function fixtureAgent(name: string, overrides: AgentOverrides = {}): LoadedAgent {
  const dir = path.join(FIXTURES, name);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'agent.json'), 'utf8')) as AgentManifest;
  return buildAgent(manifest, dir, overrides);
}

/** A one-off plugin written into `parentDir`: for cases no shared fixture should carry. */
export function inlineAgent(parentDir: string, slug: string, source: string, manifest: Partial<AgentManifest> = {}): LoadedAgent {
  const dir = path.join(parentDir, 'inline-plugins', slug);
  mkdirSync(dir, { recursive: true });
  const full: AgentManifest = {
    slug,
    display_name: slug,
    description: `Inline test plugin ${slug}.`,
    capabilities: ['test'],
    input_schema: { type: 'object' },
    version: '1.0.0',
    entry: 'index.js',
    ...manifest,
  };
  writeFileSync(path.join(dir, 'agent.json'), JSON.stringify(full));
  writeFileSync(path.join(dir, 'index.js'), source);
  return buildAgent(full, dir, {});
}

export class TestAgents implements AgentDirectory {
  private readonly bySlug = new Map<string, LoadedAgent>();
  constructor(agents: LoadedAgent[] = []) {
    for (const agent of agents) this.add(agent);
  }
  add(agent: LoadedAgent): LoadedAgent {
    this.bySlug.set(agent.slug, agent);
    return agent;
  }
  remove(slug: string): void {
    this.bySlug.delete(slug);
  }
  get(slug: string): LoadedAgent | undefined {
    return this.bySlug.get(slug);
  }
  list(): LoadedAgent[] {
    return [...this.bySlug.values()];
  }
}

export interface LogRecord {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** A pino logger at debug level whose records land in `records`, so tests can look at them. */
export function captureLogger(): { logger: Logger; records: LogRecord[] } {
  const records: LogRecord[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void records.push(JSON.parse(line) as LogRecord) });
  return { logger, records };
}

export class Harness {
  readonly dir: string;
  readonly dbFile: string;
  readonly artifactsRoot: string;
  readonly agents = new TestAgents();
  db!: Db;
  store!: TaskStore;
  runtime!: AgentRuntime;
  service!: TaskService;
  logger!: Logger;
  logRecords!: LogRecord[];
  private readonly cleanupDir: () => void;
  private readonly runtimes: AgentRuntime[] = [];

  constructor(private readonly runtimeConfig: HostConfig['runtime'] = TEST_RUNTIME) {
    const temp = makeTempDir('agent-host-runtime-');
    this.dir = temp.dir;
    this.cleanupDir = temp.cleanup;
    this.dbFile = path.join(this.dir, 'agent-host.db');
    this.artifactsRoot = path.join(this.dir, 'artifacts');
    this.open();
  }

  /** (Re)opens the database and builds a fresh store, runtime and service on it, like a host start. */
  open(runtimeConfig: HostConfig['runtime'] = this.runtimeConfig): void {
    this.db = openDatabase(this.dbFile);
    this.store = new TaskStore(this.db);
    const { logger, records } = captureLogger();
    this.logger = logger;
    this.logRecords = records;
    this.runtime = new AgentRuntime({
      store: this.store,
      agents: this.agents,
      artifactsRoot: this.artifactsRoot,
      runtime: runtimeConfig,
      logger,
    });
    this.runtimes.push(this.runtime);
    this.service = new TaskService(this.store, this.runtime);
  }

  /** Shuts the runtime down and closes the database, as a host stop would; `open()` starts again. */
  async restart(graceMs = 0): Promise<void> {
    await this.runtime.shutdown(graceMs);
    this.db.close();
    this.open();
  }

  add(agent: LoadedAgent): LoadedAgent {
    return this.agents.add(agent);
  }

  submit(slug: string, input: JsonObject = {}): string {
    const agent = this.agents.get(slug);
    if (!agent) throw new Error(`no test agent ${slug}`);
    return this.service.create(agent, { input }).task_id;
  }

  task(taskId: string): Task {
    const task = this.store.getRecord(taskId)?.task;
    if (!task) throw new Error(`no task ${taskId}`);
    return task;
  }

  events(taskId: string): TaskEvent[] {
    const all: TaskEvent[] = [];
    for (let after = 0; ; ) {
      const batch = this.store.listEvents(taskId, after, 1000);
      all.push(...batch);
      if (batch.length < 1000) return all;
      after = batch[batch.length - 1]!.id;
    }
  }

  statusHistory(taskId: string): TaskStatus[] {
    return this.events(taskId)
      .filter((event) => event.kind === 'status')
      .map((event) => (event.data as Task).status);
  }

  logLines(taskId: string, level?: LogLevel): string[] {
    return this.events(taskId)
      .filter((event): event is TaskEvent<'log'> => event.kind === 'log')
      .filter((event) => level === undefined || event.data.level === level)
      .map((event) => event.data.message);
  }

  /** Resolves with the task once `accept` holds, checked now and after each of its status events. */
  waitFor(taskId: string, accept: TaskStatus | TaskStatus[] | ((task: Task) => boolean), timeoutMs = 20_000): Promise<Task> {
    const test =
      typeof accept === 'function'
        ? accept
        : (task: Task) => (Array.isArray(accept) ? accept : [accept]).includes(task.status);
    return this.waitForEvent(taskId, 'status', () => {
      const task = this.store.getRecord(taskId)?.task;
      return task && test(task) ? task : undefined;
    }, timeoutMs, () => `task ${taskId} is ${this.store.getRecord(taskId)?.task.status ?? 'missing'}`);
  }

  /** Resolves once a log line of the task satisfies `match`. */
  waitForLog(taskId: string, match: (message: string) => boolean, timeoutMs = 20_000): Promise<string> {
    return this.waitForEvent(taskId, 'log', () => this.logLines(taskId).find(match), timeoutMs, () => `log of ${taskId}: ${this.logLines(taskId).slice(-5).join(' | ')}`);
  }

  private waitForEvent<T>(taskId: string, kind: TaskEvent['kind'], probe: () => T | undefined, timeoutMs: number, describe: () => string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let off = (): void => undefined;
      const timer = setTimeout(() => {
        off();
        reject(new Error(`timed out after ${timeoutMs} ms waiting on ${kind} events; ${describe()}`));
      }, timeoutMs);
      const check = (): boolean => {
        const found = probe();
        if (found === undefined) return false;
        clearTimeout(timer);
        off();
        resolve(found);
        return true;
      };
      const unsubscribe = this.store.onEvent((event) => {
        if (event.task_id === taskId && event.kind === kind) check();
      });
      off = () => void unsubscribe();
      check();
    });
  }

  async close(): Promise<void> {
    for (const runtime of this.runtimes) await runtime.shutdown(0);
    try {
      this.db.close();
    } catch {
      // Already closed by a restart that failed half-way; the temp dir goes anyway.
    }
    this.cleanupDir();
  }
}

/** Whether no process with this pid exists any more. */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Polls `condition` (for states that emit no event, like a process being reaped). */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
