import type { InboxItem } from '../../../main/shared/control-api.js';
import type { JsonObject, Task } from '../../../main/shared/protocol.js';
import { errorMessage, isApiError } from '../api/http.js';
import { applyInboxUpdates, sortInbox, type TaskUpdate } from './task-reducers.js';
import type { LoadStatus, Slice } from './types.js';

/** Why the last answer to a task did not go through, with what was sent (to fill the form again). */
export interface AnswerFailure {
  message: string;
  details: readonly unknown[];
  answer: JsonObject;
  /** Changes with every failure, so the form re-mounts with the restored answer. */
  attempt: number;
}

export interface InboxState {
  items: InboxItem[];
  status: LoadStatus;
  error?: string;
  /** Tasks answered from here, with the updated_at of the prompt answered (see applyInboxUpdates). */
  answered: Record<string, string>;
  failures: Record<string, AnswerFailure>;
  requestedAt: number;
}

export interface InboxSlice {
  inbox: InboxState;
  loadInbox(): Promise<void>;
  /**
   * Sends an answer. The task leaves the inbox (and the detail shows it WORKING) at once; if the
   * host refuses, it comes back with the error and the answer given, to correct and send again.
   */
  answerTask(taskId: string, input: JsonObject): Promise<boolean>;
  applyInboxTaskUpdates(updates: readonly TaskUpdate[]): void;
}

interface Pending {
  item?: InboxItem;
  detailTask?: Task;
  /** A status event for the task arrived meanwhile: the world moved on, don't restore the old state. */
  superseded: boolean;
}

export const inboxSlice: Slice<InboxSlice> = ({ api, now }) => (set, get) => {
  let generation = 0;
  let inFlight = false;
  let buffered: TaskUpdate[] = [];
  const pending = new Map<string, Pending>();
  let attempts = 0;
  const patch = (p: Partial<InboxState>): void => set((s) => ({ inbox: { ...s.inbox, ...p } }));
  const displayName = (slug: string): string =>
    get().agents.list.find((a) => a.slug === slug)?.display_name ?? get().inbox.items.find((i) => i.agent_slug === slug)?.agent_display_name ?? slug;

  return {
    inbox: { items: [], status: 'idle', answered: {}, failures: {}, requestedAt: 0 },

    async loadInbox() {
      const gen = ++generation;
      if (get().inbox.status !== 'ready') patch({ status: 'loading' });
      patch({ requestedAt: now(), error: undefined });
      inFlight = true;
      buffered = [];
      try {
        const items = await api.getInbox();
        if (gen !== generation) return;
        // Answers still on their way stay out, whatever the snapshot says.
        const visible = items.filter((i) => !pending.has(i.task.task_id));
        const withLive = applyInboxUpdates(sortInbox(visible), buffered, displayName, get().inbox.answered);
        patch({ items: withLive, status: 'ready' });
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

    async answerTask(taskId, input) {
      const state = get();
      const item = state.inbox.items.find((i) => i.task.task_id === taskId);
      const detailTask = state.detail.data?.task.task_id === taskId ? state.detail.data.task : undefined;
      const askedAt = (item?.task ?? detailTask)?.updated_at ?? '';
      pending.set(taskId, { item, detailTask, superseded: false });
      const { [taskId]: _old, ...failures } = state.inbox.failures;
      patch({
        items: state.inbox.items.filter((i) => i.task.task_id !== taskId),
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
        const items = restore && p.item ? sortInbox([p.item, ...get().inbox.items.filter((i) => i.task.task_id !== taskId)]) : get().inbox.items;
        patch({ items, answered, failures: { ...get().inbox.failures, [taskId]: failure } });
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
      const items = applyInboxUpdates(inbox.items, updates, displayName, inbox.answered);
      if (items !== inbox.items) patch({ items });
    },
  };
};

/** How the detail shows a task whose answer is on its way: working on it, no prompt. */
function withoutPrompt(task: Task): Task {
  const { prompt: _p, prompt_schema: _s, ...rest } = task;
  return { ...rest, status: 'WORKING' };
}
