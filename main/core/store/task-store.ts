import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type {
  Artifact,
  ArtifactType,
  JsonObject,
  LogLevel,
  NotificationConfig,
  Task,
  TaskError,
  TaskEvent,
  TaskEventDataMap,
  TaskEventKind,
  TaskStatus,
} from '../../shared/protocol.js';
import { statusesLeadingTo } from '../../shared/task-states.js';
import { nowIso } from '../clock.js';
import type { Db } from './database.js';

/** A task as the host sees it: the wire Task plus what only the host needs. */
export interface TaskRecord {
  seq: number;
  agentSlug: string;
  notificationConfig?: NotificationConfig;
  task: Task;
}

export interface NewTask {
  agentSlug: string;
  agentId: string;
  input: JsonObject;
  notificationConfig?: NotificationConfig;
  idempotencyKey?: string;
  /** Fingerprint of the create request, to tell a retry from a reuse of its Idempotency-Key. */
  requestHash?: string;
}

export type CreateResult =
  | { kind: 'created'; task: Task }
  | { kind: 'replayed'; task: Task }
  | { kind: 'key-reused'; task: Task };

export interface TransitionPatch {
  output?: JsonObject;
  error?: TaskError;
  prompt?: string;
  promptSchema?: JsonObject;
}

export type TransitionResult =
  | { ok: true; task: Task; previous: TaskStatus }
  | { ok: false; task: Task | undefined };

export interface ArtifactRecord {
  artifact: Omit<Artifact, 'content'> & { content: string | null };
  /** For `file` artifacts: path relative to the artifacts root. */
  filePath?: string;
}

export interface NewArtifact {
  taskId: string;
  type: ArtifactType;
  content?: string;
  filePath?: string;
  size?: number;
  filename?: string;
  mimeType?: string;
  description?: string;
}

export interface LogEntry {
  level: LogLevel;
  message: string;
  timestamp?: string;
}

/**
 * Runs inside the transaction of every status change, after the task row is updated; the
 * webhook outbox hooks in here so a delivery row commits with the change it reports.
 */
export type StatusChangeHook = (record: TaskRecord, db: Db) => void;
export type EventListener = (event: TaskEvent) => void;

/** A committed status change: the task as it is now, and the status it left (none for a new task). */
export interface StatusChange {
  record: TaskRecord;
  previous: TaskStatus | undefined;
}
export type StatusChangeListener = (change: StatusChange) => void;

export interface TaskRow {
  seq: number;
  task_id: string;
  agent_slug: string;
  agent_id: string;
  status: TaskStatus;
  input: string;
  output: string | null;
  prompt: string | null;
  prompt_schema: string | null;
  error_code: string | null;
  error_message: string | null;
  notification_config: string | null;
  idempotency_key: string | null;
  request_hash: string | null;
  created_at: string;
  updated_at: string;
}

/** An `artifacts` row as SQLite returns it (also for the control API's joined queries). */
export interface ArtifactRow {
  artifact_id: string;
  task_id: string;
  type: ArtifactType;
  content: string | null;
  file_path: string | null;
  size: number | null;
  filename: string | null;
  mime_type: string | null;
  description: string | null;
  created_at: string;
}

interface EventRow {
  id: number;
  task_id: string;
  kind: TaskEventKind;
  data: string;
}

export function toRecord(row: TaskRow): TaskRecord {
  const task: Task = {
    task_id: row.task_id,
    agent_id: row.agent_id,
    status: row.status,
    input: JSON.parse(row.input) as JsonObject,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
  if (row.output !== null) task.output = JSON.parse(row.output) as JsonObject;
  if (row.prompt !== null) task.prompt = row.prompt;
  if (row.prompt_schema !== null) task.prompt_schema = JSON.parse(row.prompt_schema) as JsonObject;
  if (row.error_code !== null) task.error = { code: row.error_code, message: row.error_message ?? '' };
  const record: TaskRecord = { seq: row.seq, agentSlug: row.agent_slug, task };
  if (row.notification_config !== null) {
    record.notificationConfig = JSON.parse(row.notification_config) as NotificationConfig;
  }
  return record;
}

export function toArtifactRecord(row: ArtifactRow): ArtifactRecord {
  const metadata: Artifact['metadata'] = { created_at: row.created_at };
  if (row.filename !== null) metadata.filename = row.filename;
  if (row.mime_type !== null) metadata.mime_type = row.mime_type;
  if (row.description !== null) metadata.description = row.description;
  if (row.size !== null) metadata.size = row.size;
  const record: ArtifactRecord = {
    artifact: { artifact_id: row.artifact_id, task_id: row.task_id, type: row.type, content: row.content, metadata },
  };
  if (row.file_path !== null) record.filePath = row.file_path;
  return record;
}

/**
 * The only writer of tasks. Every status change is one transaction, guarded by the current
 * status (so terminal states stay terminal under races), that also appends the task's event and
 * runs the status hooks. Listeners hear about events only after their transaction committed.
 */
export class TaskStore {
  private readonly listeners = new Set<EventListener>();
  private readonly statusListeners = new Set<StatusChangeListener>();
  private readonly statusHooks: StatusChangeHook[] = [];
  private pendingEvents: TaskEvent[] = [];
  private pendingStatusChanges: StatusChange[] = [];
  private readonly guardedUpdates = new Map<string, Database.Statement>();

  private readonly stmt;

  constructor(private readonly db: Db) {
    this.stmt = {
      insertTask: db.prepare(
        `INSERT INTO tasks (task_id, agent_slug, agent_id, status, input, notification_config,
           idempotency_key, request_hash, created_at, updated_at)
         VALUES (@task_id, @agent_slug, @agent_id, 'SUBMITTED', @input, @notification_config,
           @idempotency_key, @request_hash, @now, @now)`,
      ),
      byId: db.prepare<[string], TaskRow>('SELECT * FROM tasks WHERE task_id = ?'),
      byIdempotencyKey: db.prepare<[string, string], TaskRow>(
        'SELECT * FROM tasks WHERE agent_slug = ? AND idempotency_key = ?',
      ),
      insertEvent: db.prepare<[string, TaskEventKind, string, string]>(
        'INSERT INTO task_events (task_id, kind, data, created_at) VALUES (?, ?, ?, ?)',
      ),
      lastStatusEvent: db.prepare<[string], { id: number }>(
        `SELECT id FROM task_events WHERE task_id = ? AND kind = 'status' ORDER BY id DESC LIMIT 1`,
      ),
      eventsAfter: db.prepare<[string, number, number], EventRow>(
        'SELECT id, task_id, kind, data FROM task_events WHERE task_id = ? AND id > ? ORDER BY id LIMIT ?',
      ),
      insertArtifact: db.prepare(
        `INSERT INTO artifacts (artifact_id, task_id, type, content, file_path, size, filename,
           mime_type, description, created_at)
         VALUES (@artifact_id, @task_id, @type, @content, @file_path, @size, @filename, @mime_type,
           @description, @created_at)`,
      ),
      artifactsOf: db.prepare<[string], ArtifactRow>(
        'SELECT * FROM artifacts WHERE task_id = ? ORDER BY created_at, rowid',
      ),
      artifactById: db.prepare<[string], ArtifactRow>('SELECT * FROM artifacts WHERE artifact_id = ?'),
      oldestSubmitted: db.prepare<[string, number], TaskRow>(
        `SELECT * FROM tasks WHERE agent_slug = ? AND status = 'SUBMITTED' ORDER BY seq LIMIT ?`,
      ),
      inStatus: db.prepare<[TaskStatus], TaskRow>('SELECT * FROM tasks WHERE status = ? ORDER BY seq'),
      agentId: db.prepare<[string], { agent_id: string }>('SELECT agent_id FROM agents WHERE slug = ?'),
      insertAgent: db.prepare<[string, string, string]>(
        'INSERT INTO agents (slug, agent_id, created_at) VALUES (?, ?, ?)',
      ),
      updateAgentId: db.prepare<[string, string]>('UPDATE agents SET agent_id = ? WHERE slug = ?'),
    };
  }

  /** Subscribes to committed events; returns the unsubscribe function. */
  onEvent(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Subscribes to committed status changes, each with the status the task left (events carry
   * only the new one); called after the event listeners. Returns the unsubscribe function.
   */
  onStatusChange(listener: StatusChangeListener): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** How many listeners are subscribed (tests check that streams unsubscribe). */
  listenerCount(): number {
    return this.listeners.size;
  }

  addStatusHook(hook: StatusChangeHook): void {
    this.statusHooks.push(hook);
  }

  /** The agent_id for a slug: the manifest's fixed one, else the one first assigned, kept forever. */
  agentIdFor(slug: string, fixed?: string): string {
    return this.db
      .transaction(() => {
        const existing = this.stmt.agentId.get(slug)?.agent_id;
        if (fixed !== undefined) {
          if (existing === undefined) this.stmt.insertAgent.run(slug, fixed, nowIso());
          else if (existing !== fixed) this.stmt.updateAgentId.run(fixed, slug);
          return fixed;
        }
        if (existing !== undefined) return existing;
        const assigned = randomUUID();
        this.stmt.insertAgent.run(slug, assigned, nowIso());
        return assigned;
      })
      .immediate();
  }

  createTask(spec: NewTask): CreateResult {
    return this.commit(() => {
      if (spec.idempotencyKey !== undefined) {
        const earlier = this.earlierCreate(spec.agentSlug, spec.idempotencyKey, spec.requestHash);
        if (earlier) return earlier;
      }
      const taskId = randomUUID();
      this.stmt.insertTask.run({
        task_id: taskId,
        agent_slug: spec.agentSlug,
        agent_id: spec.agentId,
        input: JSON.stringify(spec.input),
        notification_config: spec.notificationConfig ? JSON.stringify(spec.notificationConfig) : null,
        idempotency_key: spec.idempotencyKey ?? null,
        request_hash: spec.requestHash ?? null,
        now: nowIso(),
      });
      const record = this.mustGet(taskId);
      this.afterStatusChange(record, undefined);
      return { kind: 'created', task: record.task };
    });
  }

  /**
   * What a create with this Idempotency-Key meets when an earlier create used it: that task, as a
   * replay when the request is the same (`requestHash`) or as a reuse of the key otherwise;
   * undefined when no task of the agent has the key.
   */
  earlierCreate(agentSlug: string, idempotencyKey: string, requestHash?: string): Exclude<CreateResult, { kind: 'created' }> | undefined {
    const existing = this.stmt.byIdempotencyKey.get(agentSlug, idempotencyKey);
    if (!existing) return undefined;
    const task = toRecord(existing).task;
    return existing.request_hash === (requestHash ?? null) ? { kind: 'replayed', task } : { kind: 'key-reused', task };
  }

  getRecord(taskId: string): TaskRecord | undefined {
    const row = this.stmt.byId.get(taskId);
    return row ? toRecord(row) : undefined;
  }

  /** The task, only if it belongs to `agentSlug`: a task id of another agent is unknown. */
  getTask(agentSlug: string, taskId: string): Task | undefined {
    const record = this.getRecord(taskId);
    return record && record.agentSlug === agentSlug ? record.task : undefined;
  }

  /**
   * Moves a task to `to` if its current status allows it (see ALLOWED_TRANSITIONS), in one
   * transaction with its status event and hooks. Leaving INPUT_REQUIRED clears the prompt.
   */
  transition(taskId: string, to: TaskStatus, patch: TransitionPatch = {}): TransitionResult {
    return this.commit(() => this.transitionInTx(taskId, to, patch));
  }

  /** INPUT_REQUIRED → WORKING with the answer recorded as an event, atomically. */
  answer(taskId: string, answer: JsonObject): TransitionResult {
    return this.commit(() => {
      return this.transitionInTx(taskId, 'WORKING', {}, ['INPUT_REQUIRED'], () =>
        this.appendEvent(taskId, 'answer', { timestamp: nowIso(), input: answer }),
      );
    });
  }

  /** WORKING → INPUT_REQUIRED with the prompt recorded as an event, atomically. */
  requestInput(taskId: string, prompt: string, schema?: JsonObject): TransitionResult {
    return this.commit(() => {
      const patch: TransitionPatch = { prompt };
      if (schema) patch.promptSchema = schema;
      return this.transitionInTx(taskId, 'INPUT_REQUIRED', patch, ['WORKING'], () => {
        const data: TaskEventDataMap['prompt'] = { timestamp: nowIso(), prompt };
        if (schema) data.schema = schema;
        this.appendEvent(taskId, 'prompt', data);
      });
    });
  }

  /** Appends log lines in one transaction (agents can log thousands of lines quickly). */
  appendLogs(taskId: string, entries: readonly LogEntry[]): void {
    if (entries.length === 0) return;
    this.commit(() => {
      for (const entry of entries) {
        this.appendEvent(taskId, 'log', {
          timestamp: entry.timestamp ?? nowIso(),
          level: entry.level,
          message: entry.message,
        });
      }
    });
  }

  addArtifact(spec: NewArtifact): ArtifactRecord {
    return this.commit(() => {
      const artifactId = randomUUID();
      this.stmt.insertArtifact.run({
        artifact_id: artifactId,
        task_id: spec.taskId,
        type: spec.type,
        content: spec.content ?? null,
        file_path: spec.filePath ?? null,
        size: spec.size ?? null,
        filename: spec.filename ?? null,
        mime_type: spec.mimeType ?? null,
        description: spec.description ?? null,
        created_at: nowIso(),
      });
      this.appendEvent(spec.taskId, 'artifact', { artifact_id: artifactId });
      const row = this.stmt.artifactById.get(artifactId);
      if (!row) throw new Error(`artifact ${artifactId} vanished inside its own transaction`);
      return toArtifactRecord(row);
    });
  }

  listArtifacts(taskId: string): ArtifactRecord[] {
    return this.stmt.artifactsOf.all(taskId).map(toArtifactRecord);
  }

  getArtifact(artifactId: string): ArtifactRecord | undefined {
    const row = this.stmt.artifactById.get(artifactId);
    return row ? toArtifactRecord(row) : undefined;
  }

  /** The task's events with id > afterId, oldest first. */
  listEvents(taskId: string, afterId = 0, limit = 1000): TaskEvent[] {
    return this.stmt.eventsAfter
      .all(taskId, afterId, limit)
      .map((row) => ({ id: row.id, task_id: row.task_id, kind: row.kind, data: JSON.parse(row.data) }) as TaskEvent);
  }

  /** Id of the task's latest status event (the one for its current status); undefined if none. */
  lastStatusEventId(taskId: string): number | undefined {
    return this.stmt.lastStatusEvent.get(taskId)?.id;
  }

  /** The answers given so far, in order: a resumed worker replays them. */
  answersOf(taskId: string): JsonObject[] {
    const answers: JsonObject[] = [];
    let after = 0;
    for (;;) {
      const batch = this.listEvents(taskId, after, 1000);
      for (const event of batch) {
        if (event.kind === 'answer') answers.push((event.data as TaskEventDataMap['answer']).input);
      }
      if (batch.length < 1000) return answers;
      after = batch[batch.length - 1]!.id;
    }
  }

  /** The oldest SUBMITTED tasks of an agent, in arrival order. */
  oldestSubmitted(agentSlug: string, limit: number): TaskRecord[] {
    return this.stmt.oldestSubmitted.all(agentSlug, limit).map(toRecord);
  }

  tasksInStatus(status: TaskStatus): TaskRecord[] {
    return this.stmt.inStatus.all(status).map(toRecord);
  }

  private transitionInTx(
    taskId: string,
    to: TaskStatus,
    patch: TransitionPatch,
    from: readonly TaskStatus[] = statusesLeadingTo(to),
    beforeStatusEvent?: () => void,
  ): TransitionResult {
    const current = this.stmt.byId.get(taskId);
    if (!current) return { ok: false, task: undefined };
    if (!from.includes(current.status)) return { ok: false, task: toRecord(current).task };
    const now = nowIso();
    // The guard is repeated in the WHERE clause: the row only changes from an allowed status.
    const info = this.guardedUpdate(from).run(
        to,
        now < current.updated_at ? current.updated_at : now,
        patch.output !== undefined ? JSON.stringify(patch.output) : current.output,
        to === 'INPUT_REQUIRED' ? (patch.prompt ?? '') : null,
        to === 'INPUT_REQUIRED' && patch.promptSchema ? JSON.stringify(patch.promptSchema) : null,
        patch.error?.code ?? current.error_code,
        patch.error?.message ?? current.error_message,
        taskId,
        ...from,
      );
    if (info.changes !== 1) return { ok: false, task: this.mustGet(taskId).task };
    beforeStatusEvent?.();
    const record = this.mustGet(taskId);
    this.afterStatusChange(record, current.status);
    return { ok: true, task: record.task, previous: current.status };
  }

  private guardedUpdate(from: readonly TaskStatus[]): Database.Statement {
    const key = from.join(',');
    let statement = this.guardedUpdates.get(key);
    if (!statement) {
      statement = this.db.prepare(
        `UPDATE tasks SET status = ?, updated_at = ?,
           output = ?, prompt = ?, prompt_schema = ?, error_code = ?, error_message = ?
         WHERE task_id = ? AND status IN (${from.map(() => '?').join(',')})`,
      );
      this.guardedUpdates.set(key, statement);
    }
    return statement;
  }

  private afterStatusChange(record: TaskRecord, previous: TaskStatus | undefined): void {
    this.appendEvent(record.task.task_id, 'status', record.task);
    for (const hook of this.statusHooks) hook(record, this.db);
    this.pendingStatusChanges.push({ record, previous });
  }

  private appendEvent<K extends TaskEventKind>(
    taskId: string,
    kind: K,
    data: TaskEventDataMap[K],
  ): void {
    const info = this.stmt.insertEvent.run(taskId, kind, JSON.stringify(data), nowIso());
    this.pendingEvents.push({ id: Number(info.lastInsertRowid), task_id: taskId, kind, data } as TaskEvent);
  }

  private mustGet(taskId: string): TaskRecord {
    const record = this.getRecord(taskId);
    if (!record) throw new Error(`task ${taskId} vanished inside its own transaction`);
    return record;
  }

  /** Runs `work` in an IMMEDIATE transaction, then tells listeners what it committed. */
  private commit<T>(work: () => T): T {
    const outer = this.pendingEvents.length === 0 && !this.db.inTransaction;
    let result: T;
    try {
      result = this.db.transaction(work).immediate();
    } catch (err) {
      if (outer) {
        this.pendingEvents = [];
        this.pendingStatusChanges = [];
      }
      throw err;
    }
    if (!outer) return result;
    const committed = this.pendingEvents;
    const changes = this.pendingStatusChanges;
    this.pendingEvents = [];
    this.pendingStatusChanges = [];
    // A listener's failure must not undo or hide a committed change from the others.
    for (const event of committed) notifyAll(this.listeners, event);
    for (const change of changes) notifyAll(this.statusListeners, change);
    return result;
  }
}

function notifyAll<T>(listeners: ReadonlySet<(value: T) => void>, value: T): void {
  for (const listener of listeners) {
    try {
      listener(value);
    } catch {
      // See commit(): the change is committed whatever a listener does.
    }
  }
}
