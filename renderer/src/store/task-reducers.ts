/**
 * Pure reducers that fold live task events into what the UI holds: the task list (respecting its
 * filters), the open task's detail, and the inbox. No DOM, no store: unit-tested directly.
 */
import type { InboxItem, TaskDetail, TaskSummary } from '../../../main/shared/control-api.js';
import type { Task, TaskEvent, TaskStatus } from '../../../main/shared/protocol.js';

export interface TaskFilters {
  status: TaskStatus[];
  agent: string[];
  q: string;
}

export const EMPTY_FILTERS: TaskFilters = { status: [], agent: [], q: '' };

/** A task's new state as a status event reports it. */
export interface TaskUpdate {
  task: Task;
  agent_slug: string;
  /** The event's id: orders updates of the same task. */
  eventId: number;
  /** The stream carried an answer to this task just before this status: it left INPUT_REQUIRED. */
  afterAnswer?: boolean;
}

export interface TaskRows {
  rows: TaskSummary[];
  total: number;
  /** Absent when every matching row is loaded. */
  nextCursor?: string;
}

/** How much of the input a list row carries (the server trims its previews the same way). */
export const INPUT_PREVIEW_CHARS = 200;

export function summaryOf(task: Task, agentSlug: string): TaskSummary {
  const summary: TaskSummary = {
    task_id: task.task_id,
    agent_slug: agentSlug,
    status: task.status,
    created_at: task.created_at,
    updated_at: task.updated_at,
    input_preview: JSON.stringify(task.input ?? {}).slice(0, INPUT_PREVIEW_CHARS),
  };
  if (task.prompt !== undefined && task.status === 'INPUT_REQUIRED') summary.prompt = task.prompt;
  if (task.error) summary.error_code = task.error.code;
  return summary;
}

/**
 * Whether a task belongs in a list with these filters. The search is approximated here as a
 * case-insensitive substring of the fields the server searches (id, input, prompt, error
 * message), so a task that changes live lands where a refetch would put it.
 */
export function matchesFilters(task: Task, agentSlug: string, filters: TaskFilters): boolean {
  if (filters.status.length > 0 && !filters.status.includes(task.status)) return false;
  if (filters.agent.length > 0 && !filters.agent.includes(agentSlug)) return false;
  const q = filters.q.trim().toLowerCase();
  if (q) {
    const haystack = [task.task_id, JSON.stringify(task.input ?? {}), task.prompt ?? '', task.error?.message ?? '']
      .join('\n')
      .toLowerCase();
    if (!haystack.includes(q)) return false;
  }
  return true;
}

/** Newest first, as the server sorts: by creation time, descending. */
function newerFirst(a: { created_at: string }, b: { created_at: string }): number {
  return a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0;
}

/**
 * Applies a batch of status updates to the loaded rows in one pass (a 100,000-row list is copied
 * once per batch, not once per event).
 *
 * Within the loaded range (newer than the oldest loaded row, or everything when the last page is
 * in) the rows are exactly the matching tasks, so membership is known: a matching task is
 * updated or inserted (total + 1), a no-longer-matching one removed (total − 1). Older tasks are
 * left to paging: the page that reaches them will show their current state.
 */
export function applyTaskUpdates(list: TaskRows, updates: readonly TaskUpdate[], filters: TaskFilters): TaskRows {
  if (updates.length === 0) return list;
  const latest = latestPerTask(updates);
  const oldestLoaded = list.rows[list.rows.length - 1]?.created_at;
  let total = list.total;
  const seen = new Set<string>();
  const kept: TaskSummary[] = [];
  let changed = false;
  for (const row of list.rows) {
    const update = latest.get(row.task_id);
    if (!update) {
      kept.push(row);
      continue;
    }
    seen.add(row.task_id);
    changed = true;
    if (matchesFilters(update.task, update.agent_slug, filters)) kept.push(summaryOf(update.task, update.agent_slug));
    else total--;
  }
  const inserts: TaskSummary[] = [];
  for (const update of latest.values()) {
    if (seen.has(update.task.task_id)) continue;
    if (!matchesFilters(update.task, update.agent_slug, filters)) continue;
    const inRange = list.nextCursor === undefined || oldestLoaded === undefined || update.task.created_at >= oldestLoaded;
    if (!inRange) continue;
    inserts.push(summaryOf(update.task, update.agent_slug));
    total++;
  }
  if (!changed && inserts.length === 0) return list;
  const rows = inserts.length === 0 ? kept : mergeSorted(kept, inserts.sort(newerFirst));
  return { ...list, rows, total: Math.max(total, rows.length) };
}

function latestPerTask(updates: readonly TaskUpdate[]): Map<string, TaskUpdate> {
  const latest = new Map<string, TaskUpdate>();
  for (const u of updates) {
    const prev = latest.get(u.task.task_id);
    if (!prev || u.eventId > prev.eventId) latest.set(u.task.task_id, u);
  }
  return latest;
}

/** Merges two newest-first lists; on equal times the new row goes first (it arrived later). */
function mergeSorted(rows: TaskSummary[], inserts: TaskSummary[]): TaskSummary[] {
  const out: TaskSummary[] = [];
  let i = 0;
  let j = 0;
  while (i < rows.length || j < inserts.length) {
    const a = rows[i];
    const b = inserts[j];
    if (b && (!a || newerFirst(b, a) <= 0)) {
      out.push(b);
      j++;
    } else if (a) {
      out.push(a);
      i++;
    }
  }
  return out;
}

/** The id of the newest event a detail already holds (0 when none). */
export function lastEventId(detail: Pick<TaskDetail, 'events'>): number {
  return detail.events[detail.events.length - 1]?.id ?? 0;
}

/**
 * Appends live events to an open task's detail. Events the detail already holds (an event that
 * raced the detail's own fetch, or was replayed after a reconnect) are skipped by id, so none is
 * shown twice and the task never moves back to an older status.
 */
export function applyEventsToDetail(detail: TaskDetail, events: readonly TaskEvent[]): TaskDetail {
  const after = lastEventId(detail);
  const fresh = events.filter((e) => e.task_id === detail.task.task_id && e.id > after).sort((a, b) => a.id - b.id);
  if (fresh.length === 0) return detail;
  let task = detail.task;
  for (const event of fresh) {
    if (event.kind === 'status') task = event.data as Task;
  }
  return { ...detail, task, events: [...detail.events, ...fresh] };
}

/** Puts older events (from "load earlier") in front of the ones a detail holds. */
export function prependEvents(detail: TaskDetail, older: readonly TaskEvent[], moreBefore: boolean): TaskDetail {
  const first = detail.events[0]?.id ?? Number.POSITIVE_INFINITY;
  const add = older.filter((e) => e.id < first).sort((a, b) => a.id - b.id);
  return { ...detail, events: [...add, ...detail.events], more_events_before: moreBefore };
}

// ---- inbox ----------------------------------------------------------------------------------

/** The inbox as loaded: the cards shown (pages of the server's list, live arrivals on top) and the count. */
export interface InboxRows {
  items: InboxItem[];
  /** Every task waiting for an answer, shown or not (minus answers on their way). */
  total: number;
  /** Absent when every waiting task is loaded. */
  nextCursor?: string;
  /** created_at of the last card of the last page: older waiting tasks may not be loaded yet. */
  pagedOldest?: string;
  /** A task not loaded moved on and may have been waiting: the count must be fetched again. */
  uncertain?: boolean;
}

/**
 * Folds status updates into the inbox, in event order: a task entering INPUT_REQUIRED goes on top
 * (total + 1), one leaving is removed (total − 1). The state machine makes most cases exact: a
 * task enters only from WORKING (so every INPUT_REQUIRED status is an entry), and a task not
 * loaded is known not to be waiting when it is newer than the loaded pages or every page is in.
 * An older one leaving by an answer is known from the answer event before it; one cancelled is
 * not, and sets `uncertain`. `answered` holds tasks whose answer is on its way (already taken
 * off the count), with the updated_at of the prompt answered: a replayed event for that same
 * prompt must not bring the item back, while a new prompt (a later updated_at) must.
 */
export function applyInboxUpdates(
  list: InboxRows,
  updates: readonly TaskUpdate[],
  displayName: (slug: string) => string,
  answered: Readonly<Record<string, string>>,
): InboxRows {
  if (updates.length === 0) return list;
  const byId = new Map(list.items.map((item) => [item.task.task_id, item]));
  const arrived: string[] = [];
  let total = list.total;
  let uncertain = false;
  let changed = false;
  for (const update of [...updates].sort((a, b) => a.eventId - b.eventId)) {
    const id = update.task.task_id;
    const existing = byId.get(id);
    const answeredAt = answered[id];
    if (update.task.status === 'INPUT_REQUIRED') {
      if (existing && existing.task.updated_at >= update.task.updated_at) continue;
      // A prompt whose answer is on its way (replayed): already off the count.
      if (!existing && answeredAt !== undefined && update.task.updated_at <= answeredAt) continue;
      byId.set(id, { task: update.task, agent_slug: update.agent_slug, agent_display_name: existing?.agent_display_name ?? displayName(update.agent_slug) });
      if (!existing) {
        arrived.push(id);
        total++;
      }
      changed = true;
    } else if (existing) {
      byId.delete(id);
      total--;
      changed = true;
    } else if (answeredAt === undefined && list.nextCursor !== undefined && (list.pagedOldest === undefined || update.task.created_at <= list.pagedOldest)) {
      // Possibly one of the waiting tasks not loaded yet.
      if (update.afterAnswer) {
        total--;
        changed = true;
      } else if (update.task.status === 'CANCELLED') uncertain = true;
    }
  }
  if (!changed && !uncertain) return list;
  const fresh = new Set(arrived);
  const top = arrived.reverse().flatMap((id) => byId.get(id) ?? []);
  const rest = list.items.flatMap((item) => (fresh.has(item.task.task_id) ? [] : (byId.get(item.task.task_id) ?? [])));
  const next: InboxRows = { ...list, items: [...top, ...rest], total: Math.max(total, top.length + rest.length) };
  if (uncertain) next.uncertain = true;
  else delete next.uncertain;
  return next;
}
