/**
 * Schedules plugin tasks onto worker processes: per-agent concurrency with FIFO start order,
 * cancel with a kill after a grace period, resuming answered prompts, restart recovery and
 * graceful shutdown. Every status change goes through the store's guarded transitions.
 */
import type { Logger } from 'pino';
import { ErrorCode } from '../../shared/error-codes.js';
import type { JsonObject, TaskError } from '../../shared/protocol.js';
import type { AgentDirectory, LoadedAgent } from '../agents/loaded-agent.js';
import type { HostConfig } from '../config/host-config.js';
import type { TaskRecord, TaskStore } from '../store/task-store.js';
import type { TaskScheduler } from '../tasks/task-service.js';
import { TaskWorker } from './task-worker.js';

/** After SIGKILL at the end of a shutdown, how long to wait for the processes to be reaped. */
const KILL_WAIT_MS = 5000;

export interface AgentRuntimeOptions {
  store: TaskStore;
  agents: AgentDirectory;
  /** `<data dir>/artifacts`: each task's files go to `<artifactsRoot>/<task_id>/`. */
  artifactsRoot: string;
  runtime: HostConfig['runtime'];
  logger: Logger;
}

export class AgentRuntime implements TaskScheduler {
  private readonly store: TaskStore;
  private readonly agents: AgentDirectory;
  private readonly logger: Logger;
  /** Live workers by task id, until their process has exited. */
  private readonly workers = new Map<string, TaskWorker>();
  private readonly pumping = new Set<string>();
  private readonly pumpAgain = new Set<string>();
  /** Answers that arrived before start(): resumed after recovery instead of failed by it. */
  private readonly answeredBeforeStart = new Set<string>();
  private started = false;
  private stopping = false;
  private shutdownPromise: Promise<void> | undefined;

  constructor(private readonly options: AgentRuntimeOptions) {
    this.store = options.store;
    this.agents = options.agents;
    this.logger = options.logger.child({ component: 'runtime' });
  }

  /**
   * Recovery, then scheduling. A task left WORKING by a previous run has no worker any more:
   * it fails with HOST_RESTARTED. SUBMITTED tasks are started; INPUT_REQUIRED ones keep waiting
   * for their answer. Call before the server accepts requests.
   */
  start(): void {
    if (this.started || this.stopping) return;
    this.started = true;
    for (const record of this.store.tasksInStatus('WORKING')) {
      if (this.answeredBeforeStart.has(record.task.task_id)) continue;
      this.fail(record.task.task_id, {
        code: ErrorCode.HOST_RESTARTED,
        message: 'the host stopped while the task was running; it was not finished',
      });
    }
    for (const taskId of this.answeredBeforeStart) this.resume(taskId);
    this.answeredBeforeStart.clear();
    this.reschedule();
  }

  taskQueued(agentSlug: string): void {
    this.pump(agentSlug);
  }

  taskCancelled(taskId: string): void {
    this.workers.get(taskId)?.stop('cancel', this.options.runtime.cancel_grace_ms);
  }

  taskAnswered(taskId: string, answer: JsonObject): void {
    if (!this.started) {
      this.answeredBeforeStart.add(taskId);
      return;
    }
    const worker = this.workers.get(taskId);
    if (!worker) {
      this.resume(taskId);
      return;
    }
    if (worker.deliverAnswer(answer)) return;
    // The worker is on its way out (its exit not yet seen): let it go, then resume afresh.
    worker.detach();
    void worker.exited().then(() => this.resume(taskId));
  }

  /**
   * Looks for startable SUBMITTED tasks again: call it when an agent was enabled, loaded or
   * got more concurrency. Without a slug, for every agent with queued tasks.
   */
  reschedule(agentSlug?: string): void {
    if (agentSlug !== undefined) {
      this.pump(agentSlug);
      return;
    }
    const slugs = new Set(this.store.tasksInStatus('SUBMITTED').map((record) => record.agentSlug));
    for (const slug of slugs) this.pump(slug);
  }

  /**
   * Stops starting tasks and asks running ones to stop (signal reason 'shutdown'). Results that
   * arrive within `graceMs` are applied normally; tasks still WORKING after it fail with
   * HOST_SHUTDOWN and their workers are killed. INPUT_REQUIRED tasks stay INPUT_REQUIRED.
   */
  shutdown(graceMs: number = this.options.runtime.shutdown_grace_ms): Promise<void> {
    this.shutdownPromise ??= this.stopAll(graceMs);
    return this.shutdownPromise;
  }

  // ---- read-only stats -------------------------------------------------------------------------

  /** Workers of this agent holding a concurrency slot (running, or stopping after a cancel). */
  runningCount(agentSlug: string): number {
    let count = 0;
    for (const worker of this.workers.values()) if (worker.agentSlug === agentSlug && worker.holdsSlot) count += 1;
    return count;
  }

  /** The process id of the task's live worker, if it has one. */
  workerPid(taskId: string): number | undefined {
    return this.workers.get(taskId)?.pid;
  }

  /** Live worker processes, idle ones (waiting for an answer) included. */
  workerCount(): number {
    return this.workers.size;
  }

  get isShuttingDown(): boolean {
    return this.stopping;
  }

  // ---- scheduling ------------------------------------------------------------------------------

  /** Re-entrant-safe: a pump triggered from inside a pump (via store listeners) runs after it. */
  private pump(agentSlug: string): void {
    if (!this.started || this.stopping) return;
    if (this.pumping.has(agentSlug)) {
      this.pumpAgain.add(agentSlug);
      return;
    }
    this.pumping.add(agentSlug);
    try {
      do {
        this.pumpAgain.delete(agentSlug);
        this.fillSlots(agentSlug);
      } while (this.pumpAgain.has(agentSlug) && !this.stopping);
    } catch (err) {
      this.logger.error({ err, agent: agentSlug }, 'could not schedule tasks');
    } finally {
      this.pumping.delete(agentSlug);
      this.pumpAgain.delete(agentSlug);
    }
  }

  private fillSlots(agentSlug: string): void {
    const agent = this.agents.get(agentSlug);
    // A disabled or missing agent's tasks wait in SUBMITTED until reschedule().
    if (!agent || !agent.enabled) return;
    const limit = Math.max(1, Math.floor(agent.concurrency));
    for (;;) {
      const free = limit - this.runningCount(agentSlug);
      if (free <= 0 || this.stopping) return;
      const queued = this.store.oldestSubmitted(agentSlug, free);
      if (queued.length === 0) return;
      for (const record of queued) {
        if (this.stopping) return;
        this.startQueued(record, agent);
      }
    }
  }

  private startQueued(record: TaskRecord, agent: LoadedAgent): void {
    const taskId = record.task.task_id;
    // Guarded: a task cancelled while queued is not SUBMITTED any more and is skipped.
    if (!this.store.transition(taskId, 'WORKING').ok) return;
    // Listeners of that transition may have cancelled it already.
    if (this.store.getRecord(taskId)?.task.status !== 'WORKING') return;
    this.launch(record, agent, []);
  }

  /** An answered task whose worker is gone: run it again with the answers so far, if that is safe. */
  private resume(taskId: string): void {
    const record = this.store.getRecord(taskId);
    if (!record || record.task.status !== 'WORKING' || this.workers.has(taskId)) return;
    if (this.stopping) {
      this.fail(taskId, { code: ErrorCode.HOST_SHUTDOWN, message: 'the host shut down before the task could resume' });
      return;
    }
    const agent = this.agents.get(record.agentSlug);
    if (!agent) {
      this.fail(taskId, {
        code: ErrorCode.AGENT_UNAVAILABLE,
        message: `agent ${record.agentSlug} is not loaded, so the answered task cannot resume`,
      });
      return;
    }
    if (agent.manifest.rerun_safe !== true) {
      this.fail(taskId, {
        code: ErrorCode.NOT_RESUMABLE,
        message:
          `the agent's worker stopped while the task waited for input (for example, the host restarted), ` +
          `and agent ${agent.slug} is not marked rerun_safe, so it cannot be resumed by running it again`,
      });
      return;
    }
    this.launch(record, agent, this.store.answersOf(taskId));
  }

  private launch(record: TaskRecord, agent: LoadedAgent, answers: JsonObject[]): void {
    const taskId = record.task.task_id;
    const { runtime } = this.options;
    const worker = new TaskWorker({
      store: this.store,
      agent,
      taskId,
      input: record.task.input,
      answers,
      artifactsRoot: this.options.artifactsRoot,
      memoryMb: memoryLimit(agent.manifest.memory_limit_mb, runtime.worker_memory_mb),
      killGraceMs: runtime.cancel_grace_ms,
      logger: this.logger,
      onSlotChange: (changed) => this.onSlotChange(changed),
    });
    this.workers.set(taskId, worker);
    worker.start();
  }

  private onSlotChange(worker: TaskWorker): void {
    if (!worker.alive && this.workers.get(worker.taskId) === worker) this.workers.delete(worker.taskId);
    this.pump(worker.agentSlug);
  }

  private fail(taskId: string, error: TaskError): void {
    const result = this.store.transition(taskId, 'FAILED', { error });
    if (!result.ok) this.logger.debug({ taskId, status: result.task?.status, code: error.code }, 'task already left WORKING');
  }

  private async stopAll(graceMs: number): Promise<void> {
    this.stopping = true;
    const running = [...this.workers.values()];
    for (const worker of running) worker.abort('shutdown');
    await within(Promise.all(running.map((worker) => worker.exited())), graceMs);
    const remaining = [...this.workers.values()];
    for (const worker of remaining) {
      worker.failIfWorking({
        code: ErrorCode.HOST_SHUTDOWN,
        message: `the host shut down and the task did not finish within ${graceMs} ms`,
      });
      worker.kill();
    }
    await within(Promise.all(remaining.map((worker) => worker.exited())), KILL_WAIT_MS);
    if (this.workers.size > 0) this.logger.warn({ workers: this.workers.size }, 'worker processes did not exit after SIGKILL');
  }
}

/** The worker's heap limit: the manifest's, else the host default; nonsense values fall back. */
function memoryLimit(fromManifest: number | undefined, fallback: number): number {
  const pick = (value: number | undefined): number | undefined =>
    typeof value === 'number' && Number.isFinite(value) && value >= 16 ? Math.floor(value) : undefined;
  return pick(fromManifest) ?? pick(fallback) ?? 512;
}

/** Waits for `promise`, but no longer than `ms`. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))))]);
  clearTimeout(timer);
}
