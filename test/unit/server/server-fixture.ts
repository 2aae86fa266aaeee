import { request as httpRequest } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { compileSchema } from '../../../build/main/core/agents/schema-validation.js';
import type { AgentDirectory, LoadedAgent } from '../../../build/main/core/agents/loaded-agent.js';
import { defaultConfig, type HostConfig } from '../../../build/main/core/config/host-config.js';
import { buildA2aServer } from '../../../build/main/core/server/a2a-server.js';
import { openDatabase, type Db } from '../../../build/main/core/store/database.js';
import { TaskStore, type ArtifactRecord } from '../../../build/main/core/store/task-store.js';
import { TokenStore } from '../../../build/main/core/store/token-store.js';
import type { IntakeGate } from '../../../build/main/core/tasks/intake.js';
import { TaskService, type TaskScheduler } from '../../../build/main/core/tasks/task-service.js';
import type { AgentCard, JsonObject, Task } from '../../../build/main/shared/protocol.js';
import { makeTempDir } from '../../support/temp-dir.js';

export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * Stands in for the agent runtime, which has its own tests: it records what TaskService tells
 * it, so the tests can see that each route told the runtime what changed (and nothing more).
 */
export class RecordingScheduler implements TaskScheduler {
  readonly queued: string[] = [];
  readonly cancelled: string[] = [];
  readonly answered: Array<{ taskId: string; answer: JsonObject }> = [];
  taskQueued(agentSlug: string): void {
    this.queued.push(agentSlug);
  }
  taskCancelled(taskId: string): void {
    this.cancelled.push(taskId);
  }
  taskAnswered(taskId: string, answer: JsonObject): void {
    this.answered.push({ taskId, answer });
  }
}

export const ECHO_INPUT_SCHEMA: JsonObject = {
  type: 'object',
  properties: { message: { type: 'string' }, count: { type: 'integer', minimum: 0 } },
  required: ['message'],
  additionalProperties: false,
};

export function makeAgent(store: TaskStore, slug: string, options: { enabled?: boolean; inputSchema?: JsonObject } = {}): LoadedAgent {
  const inputSchema = options.inputSchema ?? ECHO_INPUT_SCHEMA;
  return {
    slug,
    manifest: {
      slug,
      display_name: `Agent ${slug}`,
      description: `The ${slug} agent used by the server tests.`,
      capabilities: ['testing'],
      input_schema: inputSchema,
      output_schema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      version: '1.0.0',
      entry: 'index.js',
    },
    dir: `/plugins/${slug}`,
    entryPath: `/plugins/${slug}/index.js`,
    source: 'builtin',
    agentId: store.agentIdFor(slug),
    enabled: options.enabled ?? true,
    concurrency: 1,
    validateInput: compileSchema(inputSchema),
  };
}

/** A simple card builder standing in for the agents module's buildAgentCard. */
export function simpleCard(agent: LoadedAgent): AgentCard {
  return {
    protocol_version: '1.0',
    agent_id: agent.agentId,
    display_name: agent.manifest.display_name,
    description: agent.manifest.description,
    capabilities: agent.manifest.capabilities,
    input_schema: agent.manifest.input_schema,
    ...(agent.manifest.output_schema ? { output_schema: agent.manifest.output_schema } : {}),
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
  json: unknown;
}

export interface RawOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body with Transfer-Encoding: chunked (no Content-Length). */
  chunked?: boolean;
}

export interface ServerFixture {
  app: FastifyInstance;
  port: number;
  /** `http://127.0.0.1:PORT` */
  url: string;
  db: Db;
  store: TaskStore;
  tokens: TokenStore;
  scheduler: RecordingScheduler;
  agents: Map<string, LoadedAgent>;
  artifactsRoot: string;
  tempDir: string;
  logLines: string[];
  shuttingDown: { value: boolean };
  /** A request through node:http, with full control of every header (Host included). */
  raw(path: string, options?: RawOptions): Promise<RawResponse>;
  /** POST with a JSON body and Content-Type: application/json. */
  postJson(path: string, body: unknown, headers?: Record<string, string>): Promise<RawResponse>;
  /** Writes `content` under the artifacts root and records a file artifact for the task. */
  addFileArtifact(taskId: string, relPath: string, content: Buffer | string, meta?: { filename?: string; mimeType?: string }): ArtifactRecord;
  /** Creates a task straight in the store and moves it to `status` as the runtime would. */
  taskIn(slug: string, status: Task['status'], promptSchema?: JsonObject): Task;
  close(): Promise<void>;
}

export interface FixtureOptions {
  server?: Partial<HostConfig['server']>;
  cardFor?: (agent: LoadedAgent) => AgentCard;
  /** Whether intake is paused (default: never). */
  intake?: IntakeGate;
}

export async function startServer(options: FixtureOptions = {}): Promise<ServerFixture> {
  const temp = makeTempDir('agent-host-server-');
  const db = openDatabase(join(temp.dir, 'agent-host.db'));
  const store = new TaskStore(db);
  const tokens = new TokenStore(db);
  const scheduler = new RecordingScheduler();
  const service = new TaskService(store, scheduler, options.intake);
  const artifactsRoot = join(temp.dir, 'artifacts');
  mkdirSync(artifactsRoot);
  const agents = new Map<string, LoadedAgent>();
  for (const agent of [makeAgent(store, 'echo'), makeAgent(store, 'other'), makeAgent(store, 'off', { enabled: false })]) {
    agents.set(agent.slug, agent);
  }
  const directory: AgentDirectory = { get: (slug) => agents.get(slug), list: () => [...agents.values()] };
  const logLines: string[] = [];
  const logger = pino(
    { level: 'warn' },
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logLines.push(chunk.toString('utf8'));
        callback();
      },
    }),
  );
  const shuttingDown = { value: false };
  const app = await buildA2aServer({
    config: { ...defaultConfig().server, ...options.server },
    agents: directory,
    tasks: service,
    cardFor: options.cardFor ?? simpleCard,
    artifactsRoot,
    tokens,
    logger,
    isShuttingDown: () => shuttingDown.value,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no port');
  const port = address.port;
  const url = `http://127.0.0.1:${port}`;

  const raw = (path: string, opts: RawOptions = {}): Promise<RawResponse> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...opts.headers };
      // Frame every body explicitly: Node's client only chunks POST/PUT bodies by default.
      if (opts.chunked) headers['transfer-encoding'] = 'chunked';
      else if (opts.body !== undefined) headers['content-length'] ??= String(Buffer.byteLength(opts.body));
      const req = httpRequest({ host: '127.0.0.1', port, method: opts.method ?? 'GET', path, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const text = body.toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text, json });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      if (opts.body !== undefined) req.write(opts.body);
      req.end();
    });

  const taskIn = (slug: string, status: Task['status'], promptSchema?: JsonObject): Task => {
    const agent = agents.get(slug);
    if (!agent) throw new Error(`no agent ${slug}`);
    const created = store.createTask({ agentSlug: slug, agentId: agent.agentId, input: { message: 'hi' } });
    if (created.kind !== 'created') throw new Error('task not created');
    const id = created.task.task_id;
    const steps: Record<Task['status'], Array<() => unknown>> = {
      SUBMITTED: [],
      WORKING: [() => store.transition(id, 'WORKING')],
      INPUT_REQUIRED: [() => store.transition(id, 'WORKING'), () => store.requestInput(id, 'Which colour?', promptSchema)],
      COMPLETED: [() => store.transition(id, 'WORKING'), () => store.transition(id, 'COMPLETED', { output: { ok: true } })],
      FAILED: [
        () => store.transition(id, 'WORKING'),
        () => store.transition(id, 'FAILED', { error: { code: 'AGENT_ERROR', message: 'it broke' } }),
      ],
      CANCELLED: [() => store.transition(id, 'CANCELLED')],
    };
    for (const step of steps[status]) step();
    const task = store.getTask(slug, id);
    if (task?.status !== status) throw new Error(`task is ${task?.status}, wanted ${status}`);
    return task;
  };

  return {
    app,
    port,
    url,
    db,
    store,
    tokens,
    scheduler,
    agents,
    artifactsRoot,
    tempDir: temp.dir,
    logLines,
    shuttingDown,
    raw,
    postJson: (path, body, headers = {}) =>
      raw(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }),
    addFileArtifact: (taskId, relPath, content, meta = {}) => {
      const absolute = join(artifactsRoot, relPath);
      mkdirSync(dirname(absolute), { recursive: true });
      writeFileSync(absolute, content);
      return store.addArtifact({
        taskId,
        type: 'file',
        filePath: relPath,
        size: Buffer.byteLength(content),
        filename: meta.filename ?? relPath.split('/').pop() ?? 'file',
        mimeType: meta.mimeType ?? 'application/octet-stream',
      });
    },
    taskIn,
    close: async () => {
      // A test may have closed the server itself.
      if (app.server.listening) await app.close();
      db.close();
      temp.cleanup();
    },
  };
}

/** Asserts the exact protocol error shape and returns the error. */
export function errorOf(res: RawResponse): { code: string; message: string; details?: unknown[] } {
  const body = res.json as { error?: { code: string; message: string; details?: unknown[] } } | undefined;
  if (!body?.error) throw new Error(`not an error body (${res.status}): ${res.text.slice(0, 300)}`);
  const keys = Object.keys(body);
  const errorKeys = Object.keys(body.error);
  if (keys.length !== 1 || !errorKeys.every((k) => ['code', 'message', 'details'].includes(k))) {
    throw new Error(`error body has extra keys: ${res.text.slice(0, 300)}`);
  }
  if (typeof body.error.code !== 'string' || typeof body.error.message !== 'string' || body.error.message === '') {
    throw new Error(`error body lacks code/message: ${res.text}`);
  }
  return body.error;
}
