/**
 * The host's side of one worker process running one task: spawns it, feeds it the task, and
 * applies what it reports through the store's guarded transitions. Nothing the worker sends is
 * trusted: messages are parsed, paths checked, sizes capped, and any handler error is contained
 * here so a misbehaving plugin can fail only its own task.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import { ErrorCode } from '../../shared/error-codes.js';
import type { JsonObject, TaskError } from '../../shared/protocol.js';
import { isTerminal } from '../../shared/task-states.js';
import type { LoadedAgent } from '../agents/loaded-agent.js';
import { schemaProblem } from '../agents/schema-validation.js';
import type { NewArtifact, TaskStore } from '../store/task-store.js';
import { describeValidation } from '../tasks/task-service.js';
import {
  chooseMimeType,
  relativeArtifactPath,
  resolveInside,
  safeFileName,
  taskArtifactDir,
} from './artifact-files.js';
import { LineSplitter, LogBatcher } from './task-log.js';
import { unpackedPath } from '../unpacked-path.js';
import {
  ERROR_CODE_PATTERN,
  LIMITS,
  isPlainObject,
  jsonLength,
  parseWorkerMessage,
  type AbortReason,
  type ArtifactMessage,
  type HostMessage,
  type RequestInputMessage,
  type WorkerMessage,
} from './worker-protocol.js';

export const WORKER_SCRIPT = unpackedPath(fileURLToPath(new URL('./worker/agent-worker.js', import.meta.url)));

/** After a worker exits, how long its pipes may stay open (a grandchild can hold them) before we stop waiting. */
const CLOSE_WAIT_MS = 2000;
/** A worker that reported its outcome but does not exit (e.g. a plugin patched process.exit) is killed after this. */
const SETTLED_EXIT_GRACE_MS = 2000;
const OOM_MARKERS = /JavaScript heap out of memory|Reached heap limit|Allocation failed - process out of memory/;
const USE_PROCESS_GROUP = process.platform !== 'win32';

export interface TaskWorkerOptions {
  store: TaskStore;
  agent: LoadedAgent;
  taskId: string;
  input: JsonObject;
  /** Answers to replay (resuming an INPUT_REQUIRED task whose worker is gone). */
  answers: readonly JsonObject[];
  artifactsRoot: string;
  /** Heap limit (--max-old-space-size) of the worker, in MiB. */
  memoryMb: number;
  /** How long a timed-out task may take to stop before its worker is killed. */
  killGraceMs: number;
  logger: Logger;
  /** The worker started or stopped holding a concurrency slot, or ended. */
  onSlotChange: (worker: TaskWorker) => void;
}

export class TaskWorker {
  readonly taskId: string;
  readonly agentSlug: string;

  private readonly store: TaskStore;
  private readonly logger: Logger;
  private readonly logs: LogBatcher;
  private readonly artifactDir: string;
  private child: ChildProcess | undefined;
  private spawned = false;
  private startError: Error | undefined;
  private startSent = false;
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private ended = false;
  /** The worker reported its outcome (or broke protocol); its exit is then expected. */
  private settled = false;
  /** The task was handed to another worker: this one's messages and exit no longer count. */
  private detached = false;
  private abortReason: AbortReason | undefined;
  private outOfMemory = false;
  private pendingInput: number | undefined;
  private idle = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private killTimer: NodeJS.Timeout | undefined;
  private timeoutTimer: NodeJS.Timeout | undefined;
  /** Running time left before TIMEOUT; time spent waiting for an answer does not count. */
  private timeBudgetMs: number | undefined;
  private clockStartedAt = 0;
  private readonly endedPromise: Promise<void>;
  private resolveEnded!: () => void;

  constructor(private readonly options: TaskWorkerOptions) {
    this.taskId = options.taskId;
    this.agentSlug = options.agent.slug;
    this.store = options.store;
    this.logger = options.logger.child({ taskId: options.taskId, agent: options.agent.slug });
    this.logs = new LogBatcher(options.store, options.taskId, this.logger);
    this.artifactDir = taskArtifactDir(options.artifactsRoot, options.taskId);
    const timeout = options.agent.manifest.timeout_ms;
    if (typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0) this.timeBudgetMs = timeout;
    this.endedPromise = new Promise((resolve) => (this.resolveEnded = resolve));
  }

  /** The worker's process id while it runs. */
  get pid(): number | undefined {
    return this.ended ? undefined : this.child?.pid;
  }

  /** Until its process has exited (and its outcome is applied). */
  get alive(): boolean {
    return !this.ended;
  }

  /** A worker holds its agent's slot until it exits, except while it idly waits for an answer. */
  get holdsSlot(): boolean {
    return !this.ended && !this.idle;
  }

  /** Resolves once the process has exited and its outcome is applied. */
  exited(): Promise<void> {
    return this.endedPromise;
  }

  start(): void {
    const { agent, memoryMb } = this.options;
    const env = process.versions.electron ? { ...process.env, ELECTRON_RUN_AS_NODE: '1' } : process.env;
    try {
      this.child = fork(WORKER_SCRIPT, [], {
        cwd: agent.dir,
        env,
        execArgv: [`--max-old-space-size=${memoryMb}`],
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        serialization: 'json',
        // Own process group on POSIX, so a kill also reaches processes the plugin started.
        detached: USE_PROCESS_GROUP,
      });
    } catch (err) {
      this.startError = err as Error;
      process.nextTick(() => this.end());
      return;
    }
    const child = this.child;
    child.on('spawn', () => (this.spawned = true));
    child.on('error', (err) => {
      if (!this.spawned) this.startError = err;
      else this.logger.debug({ err }, 'worker process error');
    });
    child.on('message', (raw: unknown) => this.safely(() => this.onMessage(raw)));
    child.on('exit', (code, signal) => {
      this.exitInfo = { code, signal };
      this.later(CLOSE_WAIT_MS, () => this.end());
    });
    child.on('close', () => this.safely(() => this.end()));
    this.pipeLines(child.stdout, 'INFO');
    this.pipeLines(child.stderr, 'WARN');
    this.resumeClock();
  }

  /** Fires the plugin's signal. A worker whose plugin has not started yet is simply killed. */
  abort(reason: AbortReason): void {
    if (this.ended) return;
    this.abortReason ??= reason;
    if (!this.startSent) {
      this.kill();
      return;
    }
    // The worker rejects its pending prompt and gets busy again (cleanup): it holds a slot until it exits.
    this.pendingInput = undefined;
    this.idle = false;
    this.pauseClock();
    this.send({ type: 'abort', reason });
  }

  /** Aborts, and kills the worker if it has not exited within `graceMs`. */
  stop(reason: AbortReason, graceMs: number): void {
    this.abort(reason);
    this.killAfter(graceMs);
  }

  killAfter(ms: number): void {
    if (this.ended || this.killTimer) return;
    this.killTimer = this.later(ms, () => this.kill());
  }

  /** SIGKILL for the worker (and, on POSIX, its process group). */
  kill(): void {
    const child = this.child;
    if (this.ended || !child || child.pid === undefined || this.exitInfo) return;
    if (USE_PROCESS_GROUP) {
      try {
        process.kill(-child.pid, 'SIGKILL');
        return;
      } catch {
        // No group (e.g. setsid in the plugin): fall back to the process itself.
      }
    }
    child.kill('SIGKILL');
  }

  /** Passes an answer to the prompt the worker is waiting on; false when it is not waiting. */
  deliverAnswer(answer: JsonObject): boolean {
    const requestId = this.pendingInput;
    if (this.ended || this.detached || requestId === undefined || !this.child?.connected) return false;
    if (!this.send({ type: 'answer', requestId, answer })) return false;
    this.pendingInput = undefined;
    this.idle = false;
    this.resumeClock();
    return true;
  }

  /** Hands the task over (to a fresh worker): this worker is killed and no longer touches the task. */
  detach(): void {
    this.detached = true;
    this.pendingInput = undefined;
    this.idle = false;
    this.pauseClock();
    this.kill();
  }

  /** Fails the task if it is still WORKING (used when the host stops waiting for it). */
  failIfWorking(error: TaskError): void {
    if (!this.detached) this.failTask(error);
  }

  // ---- process events ------------------------------------------------------------------------

  private onMessage(raw: unknown): void {
    if (this.ended || this.detached) return;
    const parsed = parseWorkerMessage(raw);
    if (!parsed.ok) {
      this.protocolViolation(parsed.reason);
      return;
    }
    const message = parsed.message;
    if (message.type === 'logs') {
      for (const entry of message.entries) this.logs.push(entry);
      return;
    }
    if (this.settled) {
      this.logger.debug({ type: message.type }, 'message after the worker reported its outcome ignored');
      return;
    }
    this.logs.flush();
    this.dispatch(message);
  }

  private dispatch(message: Exclude<WorkerMessage, { type: 'logs' }>): void {
    switch (message.type) {
      case 'ready':
        if (this.startSent) this.protocolViolation('sent ready twice');
        else this.sendStart();
        return;
      case 'artifact':
        this.handleArtifact(message);
        return;
      case 'request-input':
        this.handleRequestInput(message);
        return;
      case 'result':
        this.settle();
        this.handleResult(message.output);
        return;
      case 'failure':
        this.settle();
        this.handleFailure(message.code, message.message);
        return;
      case 'start-failed':
        this.settle();
        this.failTask({ code: ErrorCode.WORKER_START_FAILED, message: message.message });
        return;
    }
  }

  private sendStart(): void {
    this.startSent = true;
    this.send({
      type: 'start',
      taskId: this.taskId,
      input: this.options.input,
      entryUrl: pathToFileURL(this.options.agent.entryPath).href,
      artifactDir: this.artifactDir,
      answers: [...this.options.answers],
    });
  }

  private handleRequestInput(message: RequestInputMessage): void {
    if (this.pendingInput !== undefined) {
      this.protocolViolation('asked for input while a prompt was still open');
      return;
    }
    if (message.schema) {
      const problem = promptSchemaProblem(message.schema);
      if (problem !== undefined) {
        this.send({ type: 'input-error', requestId: message.requestId, message: `the prompt's schema is invalid: ${problem}` });
        return;
      }
    }
    // Set before the store call: its listeners may answer synchronously, which must find the prompt.
    this.pendingInput = message.requestId;
    this.idle = true;
    this.pauseClock();
    const undo = (): void => {
      if (this.pendingInput !== message.requestId) return;
      this.pendingInput = undefined;
      this.idle = false;
      this.resumeClock();
    };
    let result;
    try {
      result = this.store.requestInput(this.taskId, message.prompt, message.schema);
    } catch (err) {
      undo();
      this.logger.error({ err }, 'could not record the prompt');
      this.send({ type: 'input-error', requestId: message.requestId, message: 'the host could not record the prompt' });
      return;
    }
    if (!result.ok) {
      undo();
      this.logger.debug({ status: result.task?.status }, 'prompt of a task that is no longer WORKING ignored');
      return;
    }
    this.options.onSlotChange(this);
  }

  private handleArtifact(message: ArtifactMessage): void {
    const refuse = (error: string): void => {
      this.send({ type: 'artifact-ack', requestId: message.requestId, error });
    };
    const status = this.store.getRecord(this.taskId)?.task.status;
    if (status === undefined || isTerminal(status)) {
      refuse(`the task is ${status ?? 'gone'} and takes no more artifacts`);
      return;
    }
    const { artifact } = message;
    let spec: NewArtifact;
    if (artifact.type === 'file') {
      const checked = this.checkArtifactFile(artifact.file);
      if (typeof checked === 'string') {
        refuse(checked);
        return;
      }
      spec = {
        taskId: this.taskId,
        type: 'file',
        filePath: relativeArtifactPath(this.taskId, artifact.file),
        size: checked.size,
        filename: artifact.file,
        mimeType: chooseMimeType(artifact.mimeType, artifact.file),
        ...(artifact.description !== undefined ? { description: artifact.description } : {}),
      };
    } else {
      const problem = inlineArtifactProblem(artifact.type, artifact.content);
      if (problem) {
        refuse(problem);
        return;
      }
      spec = {
        taskId: this.taskId,
        type: artifact.type,
        content: artifact.content,
        ...(artifact.description !== undefined ? { description: artifact.description } : {}),
      };
    }
    let artifactId: string;
    try {
      artifactId = this.store.addArtifact(spec).artifact.artifact_id;
    } catch (err) {
      // The plugin awaits this ack: answer it either way.
      this.logger.error({ err }, 'could not store an artifact');
      refuse('the host could not store the artifact');
      return;
    }
    this.send({ type: 'artifact-ack', requestId: message.requestId, artifactId });
  }

  /** The file's size, or why it cannot be an artifact of this task. */
  private checkArtifactFile(name: string): { size: number } | string {
    if (safeFileName(name) !== name) return `${JSON.stringify(name)} is not a safe file name`;
    const resolved = resolveInside(this.artifactDir, name);
    if (resolved === undefined) return `${JSON.stringify(name)} is outside the task's artifact folder`;
    try {
      const stat = statSync(resolved);
      return stat.isFile() ? { size: stat.size } : `${JSON.stringify(name)} is not a regular file`;
    } catch {
      return `${JSON.stringify(name)} does not exist in the task's artifact folder`;
    }
  }

  private handleResult(output: unknown): void {
    if (!isPlainObject(output)) {
      this.failTask({
        code: ErrorCode.OUTPUT_SCHEMA_VIOLATION,
        message: `the agent returned ${describeValue(output)}, but a task's output must be a JSON object`,
      });
      return;
    }
    const length = jsonLength(output) ?? Infinity;
    if (length > LIMITS.outputChars) {
      this.failTask({
        code: ErrorCode.AGENT_ERROR,
        message: `the agent's output is ${length} characters of JSON; the limit is ${LIMITS.outputChars} (large data belongs in artifacts)`,
      });
      return;
    }
    const validate = this.options.agent.validateOutput;
    if (validate && !validate(output)) {
      this.failTask({
        code: ErrorCode.OUTPUT_SCHEMA_VIOLATION,
        message: `the output does not match the agent's output_schema: ${describeValidation(validate.errors)}`,
      });
      return;
    }
    const result = this.store.transition(this.taskId, 'COMPLETED', { output });
    if (!result.ok) this.logger.debug({ status: result.task?.status }, 'late result ignored');
  }

  private handleFailure(code: string, message: string): void {
    if (this.abortReason === 'shutdown') {
      this.failTask(shutdownError(`the agent stopped with ${code}: ${message}`));
      return;
    }
    this.failTask({
      code: ERROR_CODE_PATTERN.test(code) ? code : ErrorCode.AGENT_ERROR,
      message: message.trim() === '' ? 'the agent failed without an error message' : message,
    });
  }

  private protocolViolation(reason: string): void {
    this.logger.warn({ reason }, 'worker broke the IPC protocol; stopping it');
    this.logs.push({ level: 'ERROR', message: `the agent's worker sent an invalid message: ${reason}` });
    this.settle();
    this.failTask({ code: ErrorCode.AGENT_ERROR, message: `the agent's worker sent an invalid message (${reason})` });
    this.kill();
  }

  /** Outcome known: the worker should exit on its own; make sure it does. */
  private settle(): void {
    this.settled = true;
    this.pendingInput = undefined;
    this.idle = false;
    this.pauseClock();
    this.killAfter(SETTLED_EXIT_GRACE_MS);
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.timeoutTimer = undefined;
    this.killTimer = undefined;
    // Streams a grandchild still holds must not keep feeding a finished task.
    this.child?.stdout?.destroy();
    this.child?.stderr?.destroy();
    if (!this.settled && !this.detached) this.failTask(this.exitError());
    this.logs.flush();
    this.resolveEnded();
    this.safely(() => this.options.onSlotChange(this));
  }

  private exitError(): TaskError {
    const { code, signal } = this.exitInfo ?? { code: null, signal: null };
    if (this.startError) {
      return { code: ErrorCode.WORKER_START_FAILED, message: `could not start the worker process: ${this.startError.message}` };
    }
    if (this.abortReason === 'shutdown') return shutdownError();
    if (this.outOfMemory || signal === 'SIGABRT' || code === 134) {
      return {
        code: ErrorCode.WORKER_OUT_OF_MEMORY,
        message: `the worker ran out of memory (heap limit ${this.options.memoryMb} MiB)`,
      };
    }
    const how = signal ? `was killed by signal ${signal}` : `exited with code ${String(code)}`;
    if (!this.startSent) return { code: ErrorCode.WORKER_START_FAILED, message: `the worker ${how} before the plugin started` };
    if (signal) return { code: ErrorCode.WORKER_CRASHED, message: `worker ${how}` };
    return { code: ErrorCode.WORKER_EXITED, message: `worker exited with code ${String(code)}` };
  }

  // ---- helpers -------------------------------------------------------------------------------

  /** FAILED through the store's guard (only from WORKING); a refusal means the task already ended. */
  private failTask(error: TaskError): boolean {
    this.logs.flush();
    const result = this.store.transition(this.taskId, 'FAILED', { error });
    if (!result.ok) this.logger.debug({ status: result.task?.status, code: error.code }, 'failure of a task that is no longer WORKING ignored');
    return result.ok;
  }

  private send(message: HostMessage): boolean {
    const child = this.child;
    if (!child?.connected) return false;
    try {
      child.send(message, (err) => {
        if (err) this.logger.debug({ err, type: message.type }, 'could not send to the worker');
      });
      return true;
    } catch (err) {
      this.logger.debug({ err, type: message.type }, 'could not send to the worker');
      return false;
    }
  }

  private pipeLines(stream: NodeJS.ReadableStream | null, level: 'INFO' | 'WARN'): void {
    if (!stream) return;
    const splitter = new LineSplitter(LIMITS.logMessageChars, (line) => {
      if (level === 'WARN' && OOM_MARKERS.test(line)) this.outOfMemory = true;
      if (!this.detached) this.logs.push({ level, message: line });
    });
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => this.safely(() => splitter.push(chunk)));
    stream.on('end', () => this.safely(() => splitter.end()));
    stream.on('error', (err) => this.logger.debug({ err }, 'worker output stream error'));
  }

  private resumeClock(): void {
    if (this.timeBudgetMs === undefined || this.timeoutTimer || this.ended || this.settled) return;
    this.clockStartedAt = Date.now();
    this.timeoutTimer = this.later(Math.max(0, this.timeBudgetMs), () => this.onTimeout());
  }

  private pauseClock(): void {
    if (!this.timeoutTimer || this.timeBudgetMs === undefined) return;
    clearTimeout(this.timeoutTimer);
    this.timers.delete(this.timeoutTimer);
    this.timeoutTimer = undefined;
    this.timeBudgetMs -= Date.now() - this.clockStartedAt;
  }

  private onTimeout(): void {
    this.timeoutTimer = undefined;
    if (this.ended || this.settled || this.detached) return;
    const limit = this.options.agent.manifest.timeout_ms;
    const failed = this.failTask({ code: ErrorCode.TIMEOUT, message: `the task ran longer than its time limit of ${String(limit)} ms` });
    if (failed) this.stop('timeout', this.options.killGraceMs);
  }

  private later(ms: number, fn: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.safely(fn);
    }, ms);
    this.timers.add(timer);
    return timer;
  }

  /** Runs a handler; an error in it is logged, never thrown into the event loop. */
  private safely(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.logger.error({ err }, 'error while handling an agent worker');
    }
  }
}

/**
 * Ajv caches every compiled schema by object identity, and each prompt's schema arrives as a new
 * object: remember verdicts by JSON text so a plugin asking the same question repeatedly does not
 * grow that cache. Bounded, as plugin-made keys must not grow host memory either.
 */
const schemaVerdicts = new Map<string, string | undefined>();
const MAX_SCHEMA_VERDICTS = 256;

function promptSchemaProblem(schema: JsonObject): string | undefined {
  const key = JSON.stringify(schema);
  if (schemaVerdicts.has(key)) return schemaVerdicts.get(key);
  const problem = schemaProblem(schema);
  if (schemaVerdicts.size >= MAX_SCHEMA_VERDICTS) schemaVerdicts.clear();
  schemaVerdicts.set(key, problem);
  return problem;
}

function shutdownError(detail?: string): TaskError {
  return {
    code: ErrorCode.HOST_SHUTDOWN,
    message: `the host shut down before the task finished${detail ? ` (${detail})` : ''}`,
  };
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** Why a non-file artifact's content is unacceptable, or undefined. */
function inlineArtifactProblem(type: 'text' | 'log' | 'url' | 'json', content: string): string | undefined {
  if (type === 'url') {
    if (content.length > LIMITS.urlChars) return 'the url is too long';
    let url: URL;
    try {
      url = new URL(content);
    } catch {
      return 'url artifact content is not a URL';
    }
    // Other schemes (javascript:, file:, data:) must never reach a client as a link.
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'url artifacts must be http or https URLs';
  }
  if (type === 'json') {
    try {
      JSON.parse(content);
    } catch {
      return 'json artifact content is not valid JSON';
    }
  }
  return undefined;
}
