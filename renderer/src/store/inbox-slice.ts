import type { InboxItem } from '../../../main/shared/control-api.js';
import type { JsonObject, Task } from '../../../main/shared/protocol.js';
import { errorMessage, isApiError } from '../api/http.js';
import { createScheduler } from './debounce.js';
import { applyInboxUpdates, type InboxRows, type TaskUpdate } from './task-reducers.js';
import type { LoadStatus, Slice } from './types.js';

/** Cards per page: each carries a generated form, so the inbox draws a few at a time. */
export const INBOX_PAGE_SIZE = 50;

/** Why the last answer to a task did not go through, with what was sent (to fill the form again). */
export interface AnswerFailure {
  message: string;
  details: readonly unknown[];
  answer: JsonObject;
  /** Changes with every failure, so the form re-mounts with the restored answer. */
  attempt: number;
}

/**
 * The prompt a `#/inbox/<taskId>` link asks for. `request` changes with every ask (the view
 * brings the prompt into view and focuses it once per request).
 */
export type InboxTarget = { taskId: string; request: number } & (
  | { status: 'loading' }
  /**
   * The task waits: its card is in `items`. `pinned` when it was fetched on its own (not on a
   * loaded page): it is kept on top of the list, also when the first page is loaded again.
   */
  | { status: 'waiting'; pinned?: InboxItem }
  /** It no longer waits (answered elsewhere, cancelled, finished): `task` as it is now. */
  | { status: 'gone'; task: Task; agentSlug: string }
  /** Answered from this page: nothing more to show for it. */
  | { status: 'answered' }
  | { status: 'not-found' }
  | { status: 'error'; message: string }
);

export interface InboxState extends InboxRows {
  status: LoadStatus;
  error?: string;
  loadingMore: boolean;
  moreError?: string;
  /** Tasks answered from here, with the updated_at of the prompt answered (see applyInboxUpdates). */
  answered: Record<string, string>;
  failures: Record<string, AnswerFailure>;
  requestedAt: number;
  target?: InboxTarget;
}

export interface InboxSlice {
  inbox: InboxState;
  /** Loads the first page and the count. */
  loadInbox(): Promise<void>;
  /** Appends the next page of cards ("Load more"). */
  loadMoreInbox(): Promise<void>;
  /**
   * Sends an answer. The task leaves the inbox (and the detail shows it WORKING) at once; if the
   * host refuses, it comes back with the error and the answer given, to correct and send again.
   */
  answerTask(taskId: string, input: JsonObject): Promise<boolean>;
  applyInboxTaskUpdates(updates: readonly TaskUpdate[]): void;
  /**
   * Brings a task's prompt into the inbox (`#/inbox/<taskId>`): at once when its card is loaded,
   * else fetched with the task detail and put on top; or says it no longer waits. Asking again
   * for the same task asks again (the view focuses it again).
   */
  showInboxPrompt(taskId: string): Promise<void>;
  clearInboxPrompt(): void;
}

interface Pending {
  item?: InboxItem;
  /** Where the card was, to put it back there. */
  index: number;
  /** The task was waiting, so it was taken off the count. */
  counted: boolean;
  detailTask?: Task;
  /** A status event for the task arrived meanwhile: the world moved on, don't restore the old state. */
  superseded: boolean;
}

export const inboxSlice: Slice<InboxSlice> = ({ api, now, debounceMs }) => (set, get) => {
  const schedule = createScheduler(debounceMs);
  let generation = 0;
  let inFlight = false;
  let buffered: TaskUpdate[] = [];
  // While the count alone is fetched again: how much the live updates changed it meanwhile.
  let countInFlight = false;
  let countDelta = 0;
  const pending = new Map<string, Pending>();
  let attempts = 0;
  let targetRequests = 0;
  // While the target's task is fetched: the newest state live events reported for it meanwhile.
  let targetSeen: TaskUpdate | undefined;
  const patch = (p: Partial<InboxState>): void => set((s) => ({ inbox: { ...s.inbox, ...p } }));
  const displayName = (slug: string): string =>
    get().agents.list.find((a) => a.slug === slug)?.display_name ?? get().inbox.items.find((i) => i.agent_slug === slug)?.agent_display_name ?? slug;

  return {
    inbox: { items: [], total: 0, status: 'idle', loadingMore: false, answered: {}, failures: {}, requestedAt: 0 },

    async loadInbox() {
      const gen = ++generation;
      if (get().inbox.status !== 'ready') patch({ status: 'loading' });
      patch({ requestedAt: now(), error: undefined });
      inFlight = true;
      buffered = [];
      try {
        const page = await api.getInbox({ limit: INBOX_PAGE_SIZE });
        if (gen !== generation) return;
        // Answers still on their way stay out, whatever the snapshot says.
        const visible = page.items.filter((i) => !pending.has(i.task.task_id));
        const loaded: InboxRows = {
          items: visible,
          total: page.total - (page.items.length - visible.length),
          nextCursor: page.next_cursor,
          pagedOldest: page.items.at(-1)?.task.created_at,
        };
        const { uncertain, ...withLive } = applyInboxUpdates(loaded, buffered, displayName, get().inbox.answered);
        // A prompt opened by its link stays on top even when it is not on the first page.
        const pinned = pinnedTarget();
        if (pinned && !withLive.items.some((i) => i.task.task_id === pinned.task.task_id)) withLive.items = [pinned, ...withLive.items];
        patch({ ...withLive, nextCursor: withLive.nextCursor, pagedOldest: withLive.pagedOldest, status: 'ready', loadingMore: false, moreError: undefined });
        if (uncertain) refreshCount();
      } catch (err) {
        if (gen !== generation) return;
        patch({ status: 'error', error: errorMessage(err) });
      } finally {
        if (gen === generation) {
          inFlight = false;
          buffered = [];
        }
      }
    },

    async loadMoreInbox() {
      const { nextCursor, loadingMore, status } = get().inbox;
      if (!nextCursor || loadingMore || status !== 'ready') return;
      const gen = generation;
      patch({ loadingMore: true, moreError: undefined });
      try {
        const page = await api.getInbox({ limit: INBOX_PAGE_SIZE, cursor: nextCursor });
        if (gen !== generation) return;
        const current = get().inbox;
        // A task that arrived live (on top) may also be in this page, and one being answered stays out.
        const have = new Set(current.items.map((i) => i.task.task_id));
        const appended = page.items.filter((i) => !have.has(i.task.task_id) && !pending.has(i.task.task_id));
        // The count stays the one the live events keep: this page is a later snapshot of only part of the list.
        patch({
          items: [...current.items, ...appended],
          nextCursor: page.next_cursor,
          pagedOldest: page.items.at(-1)?.task.created_at ?? current.pagedOldest,
          total: Math.max(current.total, current.items.length + appended.length),
          loadingMore: false,
        });
      } catch (err) {
        if (gen !== generation) return;
        patch({ loadingMore: false, moreError: errorMessage(err) });
      }
    },

    async answerTask(taskId, input) {
      const state = get();
      const index = state.inbox.items.findIndex((i) => i.task.task_id === taskId);
      const item = state.inbox.items[index];
      const detailTask = state.detail.data?.task.task_id === taskId ? state.detail.data.task : undefined;
      const askedAt = (item?.task ?? detailTask)?.updated_at ?? '';
      const counted = item !== undefined || detailTask?.status === 'INPUT_REQUIRED';
      pending.set(taskId, { item, index, counted, detailTask, superseded: false });
      const { [taskId]: _old, ...failures } = state.inbox.failures;
      const target = state.inbox.target;
      patch({
        items: state.inbox.items.filter((i) => i.task.task_id !== taskId),
        // Off the count at once; the status event that follows is then not counted again.
        total: counted ? state.inbox.total - 1 : state.inbox.total,
        answered: { ...state.inbox.answered, [taskId]: askedAt },
        failures,
        target: target?.taskId === taskId ? { taskId, request: target.request, status: 'answered' } : target,
      });
      if (detailTask) get().setDetailTask(withoutPrompt(detailTask));
      try {
        await api.answerTask(taskId, input);
        pending.delete(taskId);
        get().toast('success', `Answer sent to ${item?.agent_display_name ?? 'the agent'}.`);
        return true;
      } catch (err) {
        const p = pending.get(taskId);
        pending.delete(taskId);
        if (isApiError(err) && err.status === 409) {
          // Not waiting any more (answered elsewhere, or cancelled): nothing to put back.
          get().toast('info', 'This task is no longer waiting for an answer.');
          // A prompt opened by its link then says how the task is now.
          if (get().inbox.target?.taskId === taskId) void get().showInboxPrompt(taskId);
          return false;
        }
        const { [taskId]: _a, ...answered } = get().inbox.answered;
        const failure: AnswerFailure = {
          message: errorMessage(err),
          details: isApiError(err) ? err.details : [],
          answer: input,
          attempt: ++attempts,
        };
        const restore = p && !p.superseded;
        const current = get().inbox;
        let { items, total } = current;
        if (restore && p.item) {
          items = items.filter((i) => i.task.task_id !== taskId);
          items.splice(Math.min(p.index, items.length), 0, p.item);
        }
        if (restore && p.counted) total++;
        const target = current.target;
        const backOnList = target?.taskId === taskId && target.status === 'answered' && items.some((i) => i.task.task_id === taskId);
        patch({
          items,
          total,
          answered,
          failures: { ...current.failures, [taskId]: failure },
          target: backOnList ? { taskId, request: target.request, status: 'waiting', ...(p?.item ? { pinned: p.item } : {}) } : target,
        });
        if (restore && p.detailTask) get().setDetailTask(p.detailTask);
        return false;
      }
    },

    applyInboxTaskUpdates(updates) {
      for (const u of updates) {
        const p = pending.get(u.task.task_id);
        if (p && u.task.updated_at > (p.item?.task.updated_at ?? p.detailTask?.updated_at ?? '')) p.superseded = true;
      }
      if (inFlight) buffered.push(...updates);
      const inbox = get().inbox;
      const targetUpdate = newestFor(inbox.target?.taskId, updates);
      if (targetUpdate && inbox.target?.status === 'loading' && (!targetSeen || targetSeen.eventId < targetUpdate.eventId)) targetSeen = targetUpdate;
      if (inbox.status !== 'ready') {
        // The list is loading (its page gets these updates as buffered), but a prompt pinned on
        // top is not on that page: follow it here, or the reload would pin a stale card again.
        if (targetUpdate && inbox.target?.status === 'waiting') {
          const id = targetUpdate.task.task_id;
          const waits = targetUpdate.task.status === 'INPUT_REQUIRED';
          const items = inbox.items.flatMap((i) => (i.task.task_id !== id ? [i] : waits ? [{ ...i, task: targetUpdate.task }] : []));
          patch({ items, target: followTarget(inbox.target, targetUpdate, items) });
        }
        return;
      }
      const { uncertain, ...next } = applyInboxUpdates(inbox, updates, displayName, inbox.answered);
      if (countInFlight) countDelta += next.total - inbox.total;
      const target = targetUpdate ? followTarget(inbox.target, targetUpdate, next.items) : inbox.target;
      if (next.items !== inbox.items || next.total !== inbox.total || target !== inbox.target) patch({ items: next.items, total: next.total, target });
      if (uncertain) refreshCount();
    },

    async showInboxPrompt(taskId) {
      const request = ++targetRequests;
      targetSeen = undefined;
      const inbox = get().inbox;
      const previous = inbox.target?.taskId === taskId ? inbox.target : undefined;
      if (pending.has(taskId)) {
        patch({ target: { taskId, request, status: 'answered' } });
        return;
      }
      if (inbox.status === 'ready' && inbox.items.some((i) => i.task.task_id === taskId)) {
        const pinned = previous?.status === 'waiting' ? previous.pinned : undefined;
        patch({ target: { taskId, request, status: 'waiting', ...(pinned ? { pinned } : {}) } });
        return;
      }
      patch({ target: { taskId, request, status: 'loading' } });
      try {
        const detail = await api.getTask(taskId);
        if (get().inbox.target?.request !== request) return;
        // A live event newer than this snapshot wins (the task may have been answered meanwhile).
        const latest = seenMeanwhile();
        const seen = latest && latest.task.updated_at >= detail.task.updated_at ? latest : undefined;
        const task = seen?.task ?? detail.task;
        const agentSlug = seen?.agent_slug ?? detail.agent_slug;
        const current = get().inbox;
        const answeredAt = current.answered[taskId];
        if (pending.has(taskId) || (answeredAt !== undefined && task.updated_at <= answeredAt)) patch({ target: { taskId, request, status: 'answered' } });
        else if (task.status !== 'INPUT_REQUIRED') patch({ target: { taskId, request, status: 'gone', task, agentSlug } });
        else if (current.items.some((i) => i.task.task_id === taskId)) patch({ target: { taskId, request, status: 'waiting' } });
        else {
          const item: InboxItem = { task, agent_slug: agentSlug, agent_display_name: displayName(agentSlug) };
          // Already counted in the total (it counts every waiting task): only the card is added.
          patch({ items: [item, ...current.items], target: { taskId, request, status: 'waiting', pinned: item } });
        }
      } catch (err) {
        if (get().inbox.target?.request !== request) return;
        if (isApiError(err) && err.status === 404) patch({ target: { taskId, request, status: 'not-found' } });
        else patch({ target: { taskId, request, status: 'error', message: errorMessage(err) } });
      } finally {
        if (get().inbox.target?.request === request) targetSeen = undefined;
      }
    },

    clearInboxPrompt() {
      targetRequests++;
      targetSeen = undefined;
      if (get().inbox.target) patch({ target: undefined });
    },
  };

  /** What live events said of the target's task while it was being fetched (set by applyInboxTaskUpdates). */
  function seenMeanwhile(): TaskUpdate | undefined {
    return targetSeen;
  }

  /** The card of a prompt opened by its link and fetched on its own, while it still waits. */
  function pinnedTarget(): InboxItem | undefined {
    const target = get().inbox.target;
    return target?.status === 'waiting' && !pending.has(target.taskId) ? target.pinned : undefined;
  }

  /**
   * Fetches the count again (one row), when a status event could not tell whether a task that
   * was not loaded had been waiting; what the live events change meanwhile is added on top.
   */
  function refreshCount(): void {
    schedule('inbox-count', () => {
      if (countInFlight) return;
      const gen = generation;
      countInFlight = true;
      countDelta = 0;
      api
        .getInbox({ limit: 1 })
        .then((page) => {
          if (gen !== generation || get().inbox.status !== 'ready') return;
          const total = Math.max(page.total - pending.size + countDelta, get().inbox.items.length);
          if (total !== get().inbox.total) patch({ total });
        })
        .catch(() => undefined)
        .finally(() => {
          countInFlight = false;
        });
    });
  }
};

/** The newest status update for this task in a batch, if any. */
function newestFor(taskId: string | undefined, updates: readonly TaskUpdate[]): TaskUpdate | undefined {
  if (taskId === undefined) return undefined;
  let newest: TaskUpdate | undefined;
  for (const u of updates) if (u.task.task_id === taskId && (!newest || u.eventId > newest.eventId)) newest = u;
  return newest;
}

/**
 * The opened prompt after a live status update of its task: waiting while its card is on the
 * list (a new question of the same task shows again), otherwise no longer waiting, unless it was
 * answered from here (then there is nothing to say).
 */
function followTarget(target: InboxTarget | undefined, update: TaskUpdate, items: readonly InboxItem[]): InboxTarget | undefined {
  if (!target || target.status === 'loading' || target.status === 'not-found' || target.status === 'error') return target;
  // An event older than the state fetched (still on its way when the task was fetched) changes nothing.
  if (target.status === 'gone' && update.task.updated_at <= target.task.updated_at) return target;
  const { taskId, request } = target;
  const card = items.find((i) => i.task.task_id === taskId);
  if (card) return { taskId, request, status: 'waiting', ...(target.status === 'waiting' && target.pinned ? { pinned: card } : {}) };
  if (target.status === 'answered') return target;
  return { taskId, request, status: 'gone', task: update.task, agentSlug: update.agent_slug };
}

/** How the detail shows a task whose answer is on its way: working on it, no prompt. */
function withoutPrompt(task: Task): Task {
  const { prompt: _p, prompt_schema: _s, ...rest } = task;
  return { ...rest, status: 'WORKING' };
}
