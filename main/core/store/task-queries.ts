import type Database from 'better-sqlite3';
import type { TaskEvent, TaskEventKind, TaskStatus } from '../../shared/protocol.js';
import type { Db } from './database.js';
import { toArtifactRecord, toRecord, type ArtifactRecord, type ArtifactRow, type TaskRecord, type TaskRow } from './task-store.js';

/** Filters of the UI's task list; empty arrays mean "any". */
export interface TaskListFilter {
  statuses: readonly TaskStatus[];
  agents: readonly string[];
  /** Searched (a substring, ASCII case-insensitive) in the task id, the input JSON, the prompt and the error. */
  q?: string;
}

export interface TaskSummaryRow {
  seq: number;
  task_id: string;
  agent_slug: string;
  status: TaskStatus;
  created_at: string;
  updated_at: string;
  prompt: string | null;
  error_code: string | null;
  input_preview: string;
}

export interface ArtifactListFilter {
  agent?: string;
  task?: string;
}

export interface ArtifactListRow {
  /** The artifact's rowid: its place in creation order, and the paging key. */
  key: number;
  record: ArtifactRecord;
  agentSlug: string;
  taskStatus: TaskStatus;
}

export interface SlugTaggedEvent {
  event: TaskEvent;
  agentSlug: string;
}

/** Characters of the input JSON shown in the task list. */
export const INPUT_PREVIEW_CHARS = 160;

interface EventRow {
  id: number;
  task_id: string;
  kind: TaskEventKind;
  data: string;
}

function toEvent(row: EventRow): TaskEvent {
  return { id: row.id, task_id: row.task_id, kind: row.kind, data: JSON.parse(row.data) } as TaskEvent;
}

/** `%`, `_` and the escape character itself match literally (with `ESCAPE '\'`). */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function placeholders(count: number): string {
  return new Array<string>(count).fill('?').join(', ');
}

/**
 * How a search combines with status/agent filters. `search-first` reads every search text (small
 * rows, migration 3) and looks up the matches' status; `filter-first` starts from the filters'
 * index and tests only those tasks' texts. The cheaper one depends on how many tasks the filters
 * leave, which their index counts in well under a millisecond.
 */
export type SearchDrive = 'search-first' | 'filter-first';

/** Below this many tasks left by the status/agent filters, a search starts from them. */
export const FILTER_FIRST_BELOW = 20_000;

/**
 * The FROM and WHERE clauses (without paging) of a task list filter, with its parameters in
 * order; `key` is the column to page on. CROSS JOIN fixes the order of the tables for a
 * search-first query: SQLite would otherwise scan the wide tasks table itself.
 */
function taskFilterSql(
  filter: TaskListFilter,
  columns: 'summary' | 'count',
  drive: SearchDrive,
): { from: string; where: string; key: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  let from = 'tasks AS t';
  let key = 't.seq';
  if (filter.q !== undefined && filter.q !== '') {
    const filtered = filter.statuses.length > 0 || filter.agents.length > 0;
    if (drive === 'filter-first') from = 'tasks AS t JOIN task_search AS s ON s.seq = t.seq';
    else {
      // A bare count of search matches needs no column of tasks.
      from = columns === 'count' && !filtered ? 'task_search AS s' : 'task_search AS s CROSS JOIN tasks AS t ON t.seq = s.seq';
      key = 's.seq';
    }
    const terms = [`s.text LIKE ? ESCAPE '\\'`];
    params.push(`%${escapeLike(filter.q)}%`);
    // The input is stored as JSON: a quote or backslash typed in the search box is escaped there.
    const asJson = JSON.stringify(filter.q).slice(1, -1);
    if (asJson !== filter.q) {
      terms.push(`s.text LIKE ? ESCAPE '\\'`);
      params.push(`%${escapeLike(asJson)}%`);
    }
    clauses.push(`(${terms.join(' OR ')})`);
  }
  if (filter.statuses.length > 0) {
    clauses.push(`t.status IN (${placeholders(filter.statuses.length)})`);
    params.push(...filter.statuses);
  }
  if (filter.agents.length > 0) {
    clauses.push(`t.agent_slug IN (${placeholders(filter.agents.length)})`);
    params.push(...filter.agents);
  }
  return { from, where: clauses.length > 0 ? clauses.join(' AND ') : '1', key, params };
}

/** Keeps at most this many prepared filter shapes (status/agent counts × search on/off). */
const MAX_CACHED_STATEMENTS = 64;

/**
 * The read-only queries of the control API (the desk UI): paged, filtered task and artifact
 * lists, event pages and the cross-task event log the UI's live stream replays. Writes stay in
 * TaskStore; these never change a row.
 */
export class TaskQueries {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly stmt;

  constructor(private readonly db: Db) {
    this.stmt = {
      eventsBefore: db.prepare<[string, number, number], EventRow>(
        'SELECT id, task_id, kind, data FROM task_events WHERE task_id = ? AND id < ? ORDER BY id DESC LIMIT ?',
      ),
      eventsBetween: db.prepare<[string, number, number, number], EventRow>(
        'SELECT id, task_id, kind, data FROM task_events WHERE task_id = ? AND id > ? AND id < ? ORDER BY id LIMIT ?',
      ),
      hasEventBefore: db.prepare<[string, number], { one: number }>(
        'SELECT 1 AS one FROM task_events WHERE task_id = ? AND id < ? LIMIT 1',
      ),
      allEventsAfter: db.prepare<[number, number], EventRow & { agent_slug: string }>(
        `SELECT e.id, e.task_id, e.kind, e.data, t.agent_slug
         FROM task_events AS e JOIN tasks AS t ON t.task_id = e.task_id
         WHERE e.id > ? ORDER BY e.id LIMIT ?`,
      ),
      countEventsAfter: db.prepare<[number, number], { n: number }>(
        'SELECT COUNT(*) AS n FROM (SELECT 1 FROM task_events WHERE id > ? LIMIT ?)',
      ),
      lastEventId: db.prepare<[], { id: number | null }>('SELECT MAX(id) AS id FROM task_events'),
      agentOf: db.prepare<[string], { agent_slug: string }>('SELECT agent_slug FROM tasks WHERE task_id = ?'),
      waiting: db.prepare<[number, number], TaskRow>(
        `SELECT * FROM tasks WHERE status = 'INPUT_REQUIRED' AND seq < ? ORDER BY seq DESC LIMIT ?`,
      ),
      queued: db.prepare<[string], { n: number }>(
        `SELECT COUNT(*) AS n FROM tasks WHERE agent_slug = ? AND status = 'SUBMITTED'`,
      ),
    };
  }

  /** Up to `limit` tasks matching `filter` with `seq < beforeSeq`, newest first. */
  listTasks(filter: TaskListFilter, limit: number, beforeSeq = Number.MAX_SAFE_INTEGER): TaskSummaryRow[] {
    const { from, where, key, params } = taskFilterSql(filter, 'summary', this.searchDrive(filter));
    const statement = this.prepare(
      `SELECT t.seq, t.task_id, t.agent_slug, t.status, t.created_at, t.updated_at, t.prompt, t.error_code,
         substr(t.input, 1, ${INPUT_PREVIEW_CHARS}) AS input_preview
       FROM ${from} WHERE ${where} AND ${key} < ? ORDER BY ${key} DESC LIMIT ?`,
    );
    return statement.all(...params, beforeSeq, limit) as TaskSummaryRow[];
  }

  /** Up to `limit` tasks waiting for an answer (the inbox) with `seq < beforeSeq`, newest first. */
  waitingTasks(limit: number, beforeSeq = Number.MAX_SAFE_INTEGER): TaskRecord[] {
    return this.stmt.waiting.all(beforeSeq, limit).map(toRecord);
  }

  /** How many tasks match `filter`. */
  countTasks(filter: TaskListFilter): number {
    const { from, where, params } = taskFilterSql(filter, 'count', this.searchDrive(filter));
    const row = this.prepare(`SELECT COUNT(*) AS n FROM ${from} WHERE ${where}`).get(...params) as { n: number };
    return row.n;
  }

  /** See SearchDrive. */
  searchDrive(filter: TaskListFilter): SearchDrive {
    if (filter.q === undefined || filter.q === '' || (filter.statuses.length === 0 && filter.agents.length === 0)) return 'search-first';
    return this.countTasks({ statuses: filter.statuses, agents: filter.agents }) < FILTER_FIRST_BELOW ? 'filter-first' : 'search-first';
  }

  /** The task's newest `limit` events before `beforeId`, oldest first, and whether older ones exist. */
  eventsBefore(taskId: string, limit: number, beforeId = Number.MAX_SAFE_INTEGER): { events: TaskEvent[]; moreBefore: boolean } {
    const rows = this.stmt.eventsBefore.all(taskId, beforeId, limit + 1);
    const moreBefore = rows.length > limit;
    return { events: rows.slice(0, limit).reverse().map(toEvent), moreBefore };
  }

  /** The task's first `limit` events after `afterId` (and before `beforeId`), oldest first. */
  eventsAfter(taskId: string, afterId: number, limit: number, beforeId = Number.MAX_SAFE_INTEGER): { events: TaskEvent[]; moreBefore: boolean } {
    const events = this.stmt.eventsBetween.all(taskId, afterId, beforeId, limit).map(toEvent);
    const first = events[0]?.id ?? afterId + 1;
    return { events, moreBefore: this.stmt.hasEventBefore.get(taskId, first) !== undefined };
  }

  /** Events of every task after `afterId`, in id (= commit) order, with their task's agent. */
  allEventsAfter(afterId: number, limit: number): SlugTaggedEvent[] {
    return this.stmt.allEventsAfter.all(afterId, limit).map((row) => ({ event: toEvent(row), agentSlug: row.agent_slug }));
  }

  /** How many events of any task follow `afterId`, counting no further than `cap`. */
  countEventsAfter(afterId: number, cap: number): number {
    return this.stmt.countEventsAfter.get(afterId, cap)?.n ?? 0;
  }

  /** The newest event id, 0 when there are none. */
  lastEventId(): number {
    return this.stmt.lastEventId.get()?.id ?? 0;
  }

  agentOf(taskId: string): string | undefined {
    return this.stmt.agentOf.get(taskId)?.agent_slug;
  }

  /** Tasks of the agent waiting in SUBMITTED. */
  queuedCount(agentSlug: string): number {
    return this.stmt.queued.get(agentSlug)?.n ?? 0;
  }

  /** Up to `limit` artifacts (newest first) with a key below `beforeKey`, with their task's agent and status. */
  listArtifacts(filter: ArtifactListFilter, limit: number, beforeKey = Number.MAX_SAFE_INTEGER): ArtifactListRow[] {
    const clauses = ['a.rowid < ?'];
    const params: unknown[] = [beforeKey];
    if (filter.agent !== undefined) {
      clauses.push('t.agent_slug = ?');
      params.push(filter.agent);
    }
    if (filter.task !== undefined) {
      clauses.push('a.task_id = ?');
      params.push(filter.task);
    }
    const rows = this.prepare(
      `SELECT a.rowid AS artifact_key, a.*, t.agent_slug AS task_agent_slug, t.status AS task_status
       FROM artifacts AS a JOIN tasks AS t ON t.task_id = a.task_id
       WHERE ${clauses.join(' AND ')} ORDER BY a.rowid DESC LIMIT ?`,
    ).all(...params, limit) as Array<ArtifactRow & { artifact_key: number; task_agent_slug: string; task_status: TaskStatus }>;
    return rows.map((row) => ({
      key: row.artifact_key,
      record: toArtifactRecord(row),
      agentSlug: row.task_agent_slug,
      taskStatus: row.task_status,
    }));
  }

  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= MAX_CACHED_STATEMENTS) this.statements.clear();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
