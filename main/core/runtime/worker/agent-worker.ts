/**
 * Entry of an agent worker process (forked by TaskWorker). Runs exactly one task of one plugin:
 * imports the plugin's entry, builds its AgentContext, calls `run(input, ctx)`, reports the
 * result or failure over IPC, then exits. The plugin shares this process, so nothing here may
 * assume the plugin behaves; the host re-validates everything it receives.
 */
import { mkdirSync, unlinkSync } from 'node:fs';
import type { AgentContext, AgentRun, ArtifactSpec, CreatedArtifact } from '../../../shared/plugin-api.js';
import { ARTIFACT_TYPES, LOG_LEVELS, type JsonObject, type LogLevel } from '../../../shared/protocol.js';
import { writeArtifactFile } from '../artifact-files.js';
import {
  ERROR_CODE_PATTERN,
  LIMITS,
  isPlainObject,
  jsonLength,
  parseHostMessage,
  truncate,
  type AbortReason,
  type HostMessage,
  type StartMessage,
  type WireArtifact,
  type WireLogEntry,
  type WorkerMessage,
} from '../worker-protocol.js';

/** Log lines beyond the first few of a loop turn are sent in batches: agents may log thousands fast. */
const LOG_BATCH = 500;
/**
 * The first lines of each event-loop turn are sent at once, so a plugin that logs and then blocks
 * its loop (or crashes) still shows what it logged; only bursts wait for the batch.
 */
const IMMEDIATE_LINES_PER_TURN = 50;

const ABORT_MESSAGES: Record<AbortReason, { code: string; message: string }> = {
  cancel: { code: 'CANCELLED', message: 'the task was cancelled' },
  timeout: { code: 'TIMEOUT', message: 'the task ran out of time' },
  shutdown: { code: 'HOST_SHUTDOWN', message: 'the host is shutting down' },
};

class TaskAbortError extends Error {
  override readonly name = 'AbortError';
  constructor(
    readonly reason: AbortReason,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface Pending<T> {
  resolve: (value: T) => void;
  reject: (err: Error) => void;
}

const send = process.send?.bind(process);
if (!send) {
  process.stderr.write('agent-worker must be started by Agent Host (child_process.fork with IPC)\n');
  process.exit(70);
}

const controller = new AbortController();
let started = false;
let finished = false;
let nextRequestId = 1;
let logQueue: WireLogEntry[] = [];
let logTurnScheduled = false;
let linesSentThisTurn = 0;
const pendingArtifacts = new Map<number, Pending<string>>();
const pendingInputs = new Map<number, Pending<JsonObject>>();

function flushLogs(): void {
  while (logQueue.length > 0) {
    const entries = logQueue.slice(0, LIMITS.logBatchEntries);
    logQueue = logQueue.slice(entries.length);
    rawSend({ type: 'logs', entries });
  }
}

function rawSend(message: WorkerMessage, callback?: (err: Error | null) => void): void {
  try {
    send!(message, undefined, {}, callback ?? (() => undefined));
  } catch (err) {
    // The channel is gone (host died): there is nobody left to report to.
    callback?.(err as Error);
  }
}

/** Sends a message after every log line queued before it, so the host sees them in order. */
function post(message: WorkerMessage): void {
  flushLogs();
  rawSend(message);
}

function queueLog(level: LogLevel, message: string): void {
  if (finished) return;
  logQueue.push({ level, message: truncate(message, LIMITS.logMessageChars), timestamp: new Date().toISOString() });
  linesSentThisTurn += 1;
  if (linesSentThisTurn <= IMMEDIATE_LINES_PER_TURN || logQueue.length >= LOG_BATCH) flushLogs();
  if (!logTurnScheduled) {
    logTurnScheduled = true;
    setImmediate(() => {
      logTurnScheduled = false;
      linesSentThisTurn = 0;
      flushLogs();
    });
  }
}

/** Reports the task's end once and exits; later reports (e.g. from stray callbacks) are dropped. */
function finish(message: WorkerMessage, exitCode: number): void {
  if (finished) return;
  flushLogs();
  finished = true;
  rawSend(message, () => process.exit(exitCode));
}

function describe(err: unknown): { code: string; message: string } {
  const code = (err as { code?: unknown } | null)?.code;
  let message: string;
  if (err instanceof Error) message = err.message;
  else if (typeof err === 'string') message = err;
  else {
    try {
      message = String(err);
    } catch {
      message = 'unprintable error';
    }
  }
  return {
    code: typeof code === 'string' && ERROR_CODE_PATTERN.test(code) ? code : 'AGENT_ERROR',
    message: truncate(message.trim() === '' ? 'the agent failed without an error message' : message, LIMITS.errorMessageChars),
  };
}

function reportFailure(err: unknown): void {
  if (finished) return;
  const stack = err instanceof Error ? err.stack : undefined;
  if (stack) queueLog('ERROR', stack);
  finish({ type: 'failure', ...describe(err) }, 1);
}

function normaliseLevel(level: unknown): LogLevel {
  const upper = typeof level === 'string' ? level.toUpperCase() : '';
  if (upper === 'WARNING') return 'WARN';
  if ((LOG_LEVELS as readonly string[]).includes(upper)) return upper as LogLevel;
  throw new TypeError(`log level must be one of ${LOG_LEVELS.join(', ')}; got ${String(level)}`);
}

function request<T>(pending: Map<number, Pending<T>>, build: (requestId: number) => WorkerMessage): Promise<T> {
  const requestId = nextRequestId++;
  return new Promise<T>((resolve, reject) => {
    pending.set(requestId, { resolve, reject });
    post(build(requestId));
  });
}

function toBytes(content: unknown): Uint8Array {
  if (typeof content === 'string') return Buffer.from(content, 'utf8');
  if (content instanceof Uint8Array) return content;
  if (content instanceof ArrayBuffer) return new Uint8Array(content);
  if (ArrayBuffer.isView(content)) return new Uint8Array(content.buffer, content.byteOffset, content.byteLength);
  throw new TypeError('a file artifact needs its content as a string, Buffer, Uint8Array or ArrayBuffer');
}

/** json content: an already serialised JSON string is kept; any other JSON value is serialised. */
function inlineContent(spec: ArtifactSpec): string {
  if (spec.type === 'json') {
    if (typeof spec.content === 'string') {
      try {
        JSON.parse(spec.content);
      } catch (err) {
        throw new TypeError('json artifact content is a string that is not valid JSON', { cause: err });
      }
      return spec.content;
    }
    let text: string | undefined;
    try {
      text = JSON.stringify(spec.content);
    } catch (err) {
      throw new TypeError(`json artifact content cannot be serialised: ${(err as Error).message}`, { cause: err });
    }
    if (text === undefined) throw new TypeError('json artifact content is not a JSON value');
    return text;
  }
  if (typeof spec.content !== 'string') throw new TypeError(`${spec.type} artifact content must be a string`);
  return spec.content;
}

function optionalText(value: unknown, name: string, max: number): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string`);
  return truncate(value, max);
}

async function createArtifact(start: StartMessage, spec: ArtifactSpec): Promise<CreatedArtifact> {
  if (spec === null || typeof spec !== 'object') throw new TypeError('createArtifact needs a spec object');
  if (!ARTIFACT_TYPES.includes(spec.type)) throw new TypeError(`artifact type must be one of ${ARTIFACT_TYPES.join(', ')}`);
  const description = optionalText(spec.description, 'description', LIMITS.descriptionChars);
  if (spec.type === 'file') {
    if (typeof spec.filename !== 'string' || spec.filename === '') throw new TypeError('a file artifact needs a filename');
    const mimeType = optionalText(spec.mime_type, 'mime_type', LIMITS.mimeTypeChars);
    const written = await writeArtifactFile(start.artifactDir, spec.filename, toBytes(spec.content));
    const wire: WireArtifact = { type: 'file', file: written.name };
    if (mimeType !== undefined) wire.mimeType = mimeType;
    if (description !== undefined) wire.description = description;
    try {
      const artifactId = await request(pendingArtifacts, (requestId) => ({ type: 'artifact', requestId, artifact: wire }));
      return { artifact_id: artifactId, type: 'file', path: written.path };
    } catch (err) {
      // The host refused it (e.g. the task already ended): leave no orphan file behind.
      try {
        unlinkSync(written.path);
      } catch {
        // Already gone or not ours to remove; the refusal is what matters.
      }
      throw err;
    }
  }
  const content = inlineContent(spec);
  if (content.length > LIMITS.inlineArtifactChars) {
    throw new RangeError(`${spec.type} artifact content is ${content.length} characters; the limit is ${LIMITS.inlineArtifactChars} (use a file artifact)`);
  }
  const wire: WireArtifact = { type: spec.type, content };
  if (description !== undefined) wire.description = description;
  const artifactId = await request(pendingArtifacts, (requestId) => ({ type: 'artifact', requestId, artifact: wire }));
  return { artifact_id: artifactId, type: spec.type };
}

function buildContext(start: StartMessage): AgentContext {
  const replay = [...start.answers];
  // Prompts are asked one at a time: the task has one prompt slot, and replay relies on call order.
  let inputChain: Promise<unknown> = Promise.resolve();

  const askHost = (prompt: string, schema: JsonObject | undefined): Promise<JsonObject> => {
    const replayed = replay.shift();
    if (replayed !== undefined) return Promise.resolve(replayed);
    if (controller.signal.aborted) return Promise.reject(controller.signal.reason as Error);
    return request(pendingInputs, (requestId) => {
      const message: WorkerMessage = { type: 'request-input', requestId, prompt };
      if (schema !== undefined) message.schema = schema;
      return message;
    });
  };

  return {
    taskId: start.taskId,
    signal: controller.signal,
    get artifactDir(): string {
      // Created on first use, so tasks without files leave no empty folders behind.
      mkdirSync(start.artifactDir, { recursive: true });
      return start.artifactDir;
    },
    log(level: LogLevel, message: string): void {
      queueLog(normaliseLevel(level), typeof message === 'string' ? message : String(message));
    },
    createArtifact(spec: ArtifactSpec): Promise<CreatedArtifact> {
      return createArtifact(start, spec);
    },
    requestInput(prompt: string, schema?: JsonObject): Promise<JsonObject> {
      if (typeof prompt !== 'string' || prompt.trim() === '') return Promise.reject(new TypeError('requestInput needs a non-empty prompt'));
      if (prompt.length > LIMITS.promptChars) return Promise.reject(new RangeError(`prompt is longer than ${LIMITS.promptChars} characters`));
      if (schema !== undefined) {
        const length = isPlainObject(schema) ? jsonLength(schema) : undefined;
        if (length === undefined) return Promise.reject(new TypeError('requestInput schema must be a JSON object'));
        if (length > LIMITS.promptSchemaChars) return Promise.reject(new RangeError('requestInput schema is too large'));
      }
      const asked = inputChain.then(() => askHost(prompt, schema));
      inputChain = asked.catch(() => undefined);
      return asked;
    },
  };
}

async function runTask(start: StartMessage): Promise<void> {
  let run: AgentRun;
  try {
    const mod = (await import(start.entryUrl)) as { default?: unknown };
    if (typeof mod.default !== 'function') throw new Error('the entry module has no default export function run(input, ctx)');
    run = mod.default as AgentRun;
  } catch (err) {
    finish({ type: 'start-failed', message: truncate(`could not load the plugin: ${describe(err).message}`, LIMITS.errorMessageChars) }, 1);
    return;
  }
  let output: unknown;
  try {
    output = await run(start.input, buildContext(start));
  } catch (err) {
    reportFailure(err);
    return;
  }
  // A run() that returns nothing completes with an empty output (side-effect-only agents).
  const value = output === undefined ? {} : output;
  if (jsonLength(value) === undefined) {
    reportFailure(new Error('the agent returned a value that cannot be serialised as JSON'));
    return;
  }
  finish({ type: 'result', output: value }, 0);
}

function settle<T>(pending: Map<number, Pending<T>>, requestId: number, outcome: { value: T } | { error: Error }): void {
  const entry = pending.get(requestId);
  if (!entry) return;
  pending.delete(requestId);
  if ('value' in outcome) entry.resolve(outcome.value);
  else entry.reject(outcome.error);
}

function abort(reason: AbortReason): void {
  if (controller.signal.aborted) return;
  const { code, message } = ABORT_MESSAGES[reason];
  const error = new TaskAbortError(reason, code, message);
  controller.abort(error);
  // Nobody will answer a prompt of an aborted task.
  for (const requestId of [...pendingInputs.keys()]) settle(pendingInputs, requestId, { error });
}

function handle(message: HostMessage): void {
  switch (message.type) {
    case 'start':
      if (started) return;
      started = true;
      void runTask(message);
      return;
    case 'abort':
      abort(message.reason);
      return;
    case 'answer':
      settle(pendingInputs, message.requestId, { value: message.answer });
      return;
    case 'input-error':
      settle(pendingInputs, message.requestId, { error: new Error(message.message) });
      return;
    case 'artifact-ack':
      if ('artifactId' in message) settle(pendingArtifacts, message.requestId, { value: message.artifactId });
      else settle(pendingArtifacts, message.requestId, { error: new Error(message.error) });
      return;
  }
}

process.on('message', (raw: unknown) => {
  const parsed = parseHostMessage(raw);
  if (parsed.ok) handle(parsed.message);
  else queueLog('WARN', `agent worker ignored an invalid message from the host: ${parsed.reason}`);
});
// Without the host nobody can use the result; do not linger as an orphan.
process.on('disconnect', () => process.exit(0));
// A plugin's stray callback that throws fails its task instead of dying silently.
process.on('uncaughtException', (err) => {
  if (finished) return;
  reportFailure(err);
});

rawSend({ type: 'ready' });
