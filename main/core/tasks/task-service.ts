import { createHash } from 'node:crypto';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { ErrorCode } from '../../shared/error-codes.js';
import type { Artifact, JsonObject, NotificationConfig, Task, TaskEvent } from '../../shared/protocol.js';
import type { LoadedAgent } from '../agents/loaded-agent.js';
import { HostError } from '../host-error.js';
import type { ArtifactRecord, CreateResult, EventListener, TaskStore } from '../store/task-store.js';
import { compileSchema } from '../agents/schema-validation.js';
import { intakePausedError, type IntakeGate } from './intake.js';

/** What the service needs from the runtime: it is told of every change it must act on. */
export interface TaskScheduler {
  /** A task of this agent was queued (SUBMITTED): start it when a slot is free. */
  taskQueued(agentSlug: string): void;
  /** The task is CANCELLED in the store: fire its signal and stop its worker. */
  taskCancelled(taskId: string): void;
  /** The task moved from INPUT_REQUIRED to WORKING with this answer: resume its agent. */
  taskAnswered(taskId: string, answer: JsonObject): void;
}

export interface CreateTaskRequest {
  input: JsonObject;
  notification_config?: NotificationConfig;
}

export function validationDetails(errors: ErrorObject[] | null | undefined): unknown[] {
  return (errors ?? []).map((e) => ({
    path: e.instancePath || '/',
    message: e.message ?? 'is invalid',
    keyword: e.keyword,
    params: e.params,
  }));
}

export function describeValidation(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`).join('; ');
}

/**
 * The A2A task operations, independent of HTTP: validation before anything is stored, the
 * store's guarded transitions, and telling the scheduler what changed.
 */
export class TaskService {
  private readonly promptValidators = new Map<string, ValidateFunction>();

  constructor(
    private readonly store: TaskStore,
    private readonly scheduler: TaskScheduler,
    private readonly intake: IntakeGate = { isPaused: () => false },
  ) {}

  /** 503 INTAKE_PAUSED while intake is paused: for refusing a create before its body is read. */
  assertIntakeOpen(): void {
    if (this.intake.isPaused()) throw intakePausedError();
  }

  create(agent: LoadedAgent, request: CreateTaskRequest, idempotencyKey?: string): Task {
    if (this.intake.isPaused()) return this.createWhilePaused(agent, request, idempotencyKey);
    if (!agent.validateInput(request.input)) {
      throw new HostError(
        400,
        ErrorCode.INVALID_INPUT,
        `input does not match the agent's input_schema: ${describeValidation(agent.validateInput.errors)}`,
        validationDetails(agent.validateInput.errors),
      );
    }
    const result = this.store.createTask({
      agentSlug: agent.slug,
      agentId: agent.agentId,
      input: request.input,
      ...(request.notification_config ? { notificationConfig: request.notification_config } : {}),
      ...(idempotencyKey !== undefined
        ? { idempotencyKey, requestHash: fingerprint(request) }
        : {}),
    });
    if (result.kind === 'created') this.scheduler.taskQueued(agent.slug);
    return taskOf(result);
  }

  /**
   * While intake is paused nothing is stored. A retried create whose Idempotency-Key and body match
   * a task accepted before the pause still gets that task (202), as it would at any other time:
   * the orchestrator learns that its earlier create went through, instead of believing it was
   * refused and sending the work elsewhere too. Anything else is 503 INTAKE_PAUSED.
   */
  private createWhilePaused(agent: LoadedAgent, request: CreateTaskRequest, idempotencyKey: string | undefined): Task {
    const earlier = idempotencyKey === undefined ? undefined : this.store.earlierCreate(agent.slug, idempotencyKey, fingerprint(request));
    if (earlier === undefined) throw intakePausedError();
    return taskOf(earlier);
  }

  get(agentSlug: string, taskId: string): Task {
    const task = this.store.getTask(agentSlug, taskId);
    if (!task) throw taskNotFound(taskId);
    return task;
  }

  /** Moves an open task to CANCELLED; cancelling a CANCELLED task again is a no-op. */
  cancel(agentSlug: string, taskId: string): Task {
    const current = this.get(agentSlug, taskId);
    if (current.status === 'CANCELLED') return current;
    const result = this.store.transition(taskId, 'CANCELLED');
    if (!result.ok) {
      const task = result.task ?? current;
      if (task.status === 'CANCELLED') return task;
      throw new HostError(409, ErrorCode.INVALID_STATE, `task is ${task.status}; only an open task can be cancelled`);
    }
    this.scheduler.taskCancelled(taskId);
    return result.task;
  }

  /** Answers the task's prompt; 409 unless the task is INPUT_REQUIRED. */
  answer(agentSlug: string, taskId: string, answer: JsonObject): Task {
    const current = this.get(agentSlug, taskId);
    if (current.status !== 'INPUT_REQUIRED') {
      throw new HostError(409, ErrorCode.INVALID_STATE, `task is ${current.status}, not INPUT_REQUIRED`);
    }
    if (current.prompt_schema) {
      const validate = this.promptValidator(current.prompt_schema);
      if (!validate(answer)) {
        throw new HostError(
          400,
          ErrorCode.INVALID_ANSWER,
          `input does not match the prompt's schema: ${describeValidation(validate.errors)}`,
          validationDetails(validate.errors),
        );
      }
    }
    const result = this.store.answer(taskId, answer);
    if (!result.ok) {
      const status = result.task?.status ?? 'unknown';
      throw new HostError(409, ErrorCode.INVALID_STATE, `task is ${status}, not INPUT_REQUIRED`);
    }
    this.scheduler.taskAnswered(taskId, answer);
    return result.task;
  }

  artifacts(agentSlug: string, taskId: string): ArtifactRecord[] {
    this.get(agentSlug, taskId);
    return this.store.listArtifacts(taskId);
  }

  /** The artifact, only if its task belongs to `agentSlug`. */
  artifact(agentSlug: string, artifactId: string): ArtifactRecord {
    const record = this.store.getArtifact(artifactId);
    if (!record || !this.store.getTask(agentSlug, record.artifact.task_id)) {
      throw new HostError(404, ErrorCode.ARTIFACT_NOT_FOUND, `no artifact ${artifactId} for this agent`);
    }
    return record;
  }

  /**
   * The event log, for the SSE stream. Callers first check the task with `get` (these take no
   * agent slug: event ids and listeners span every task).
   */
  listEvents(taskId: string, afterId: number, limit: number): TaskEvent[] {
    return this.store.listEvents(taskId, afterId, limit);
  }

  lastStatusEventId(taskId: string): number | undefined {
    return this.store.lastStatusEventId(taskId);
  }

  /** Committed events of every task, in commit order; returns the unsubscribe function. */
  onEvent(listener: EventListener): () => void {
    return this.store.onEvent(listener);
  }

  private promptValidator(schema: JsonObject): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.promptValidators.get(key);
    if (!validate) {
      validate = compileSchema(schema);
      if (this.promptValidators.size > 500) this.promptValidators.clear();
      this.promptValidators.set(key, validate);
    }
    return validate;
  }
}

/** The wire Artifact: a `file` artifact's content is the absolute URL of its bytes. */
export function toWireArtifact(record: ArtifactRecord, agentBaseUrl: string): Artifact {
  const { artifact } = record;
  const content =
    artifact.type === 'file'
      ? `${agentBaseUrl}/artifacts/${artifact.artifact_id}/content`
      : (artifact.content ?? '');
  return { ...artifact, content };
}

/** The task a create answers with; a reused Idempotency-Key with another body is a 409. */
function taskOf(result: CreateResult): Task {
  if (result.kind === 'key-reused') {
    throw new HostError(
      409,
      ErrorCode.IDEMPOTENCY_KEY_REUSED,
      `Idempotency-Key was already used for task ${result.task.task_id} with a different request body`,
    );
  }
  return result.task;
}

function taskNotFound(taskId: string): HostError {
  return new HostError(404, ErrorCode.TASK_NOT_FOUND, `no task ${taskId} for this agent`);
}

function fingerprint(request: CreateTaskRequest): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}

/** JSON with object keys sorted, so the same request always has the same fingerprint. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
