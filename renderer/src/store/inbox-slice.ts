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

export interface InboxState extends InboxRows {
  status: LoadStatus;
  error?: string;
  loadingMore: boolean;
  moreError?: string;
  /** Tasks answered from here, with the updated_at of the prompt answered (see applyInboxUpdates). */
  answered: Record<string, string>;
  failures: Record<string, AnswerFailure>;
  requestedAt: number;
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
      patch({
        items: state.inbox.items.filter((i) => i.task.task_id !== taskId),
        // Off the count at once; the status event that follows is then not counted again.
        total: counted ? state.inbox.total - 1 : state.inbox.total,
        answered: { ...state.inbox.answered, [taskId]: askedAt },
        failures,
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
        patch({ items, total, answered, failures: { ...current.failures, [taskId]: failure } });
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
      if (inbox.status !== 'ready') return;
      const { uncertain, ...next } = applyInboxUpdates(inbox, updates, displayName, inbox.answered);
      if (countInFlight) countDelta += next.total - inbox.total;
      if (next.items !== inbox.items || next.total !== inbox.total) patch({ items: next.items, total: next.total });
      if (uncertain) refreshCount();
    },
  };

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

/** How the detail shows a task whose answer is on its way: working on it, no prompt. */
function withoutPrompt(task: Task): Task {
  const { prompt: _p, prompt_schema: _s, ...rest } = task;
  return { ...rest, status: 'WORKING' };
}
