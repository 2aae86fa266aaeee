/**
 * Tasks started from "Try it" in this page, followed until they end, so the person hears how they
 * went without staying on the page: when one finishes, fails, is cancelled or asks for input, a
 * native notification through the desktop bridge if the page is not in front, otherwise (or in a
 * plain browser, or when the bridge fails) a toast with a link to it.
 *
 * Fed by the status events the live stream already brings (nothing polls). A task is forgotten
 * once its terminal state was told; one that asks first is told twice, which is meant. Only this
 * page's own tasks: an orchestrator's are not the person's to wait for (their prompts reach the
 * inbox, and the shell's own prompt notifications, anyway).
 *
 * After a `reset` (the stream was too far behind to replay) or a new EventSource, events may have
 * been lost, so each watched task's state is fetched again (`GET /api/tasks/{id}`) and told if it
 * moved on meanwhile. They are only a handful, and dropping them instead would leave the person
 * waiting for news that never comes. A task that no longer exists (404) is forgotten.
 */
import { TERMINAL_STATUSES, type Task } from '../../../main/shared/protocol.js';
import { isApiError } from '../api/http.js';
import { desktopNotifier } from '../desktop.js';
import { isNoticeStatus, taskNotice } from '../lib/task-notice.js';
import type { TaskUpdate } from './task-reducers.js';
import type { Slice } from './types.js';

export interface WatchedTask {
  agentSlug: string;
  /** updated_at of the newest state seen: an older one (a refetch racing the stream) is stale. */
  seenAt: string;
  /** updated_at of the question already told: its replay (after a reconnect) is not told again. */
  askedAt?: string;
}

export interface WatchedTasksSlice {
  /** By task id. */
  watched: Record<string, WatchedTask>;
  /** Follows a task this page just created (its state as the create call returned it). */
  watchTask(task: Task, agentSlug: string): void;
  /** Status updates from the live stream, in stream order (every batch: see `recent` below). */
  applyWatchedUpdates(updates: readonly TaskUpdate[]): void;
  /** Fetches every watched task again, after events may have been lost. */
  refreshWatched(): void;
}

/**
 * How many other tasks' latest updates are remembered. A fast task can finish, and its events
 * arrive, before the create call's answer does; `watchTask` looks here so that end is not missed.
 * Only the last moments matter, so a few dozen is plenty.
 */
const RECENT_MAX = 64;

export const watchedTasksSlice: Slice<WatchedTasksSlice> = ({ api, pageInFront }) => (set, get) => {
  const recent = new Map<string, Task>();

  const remember = (task: Task): void => {
    recent.delete(task.task_id);
    recent.set(task.task_id, task);
    if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value!);
  };

  const patchWatched = (taskId: string, next: WatchedTask | undefined): void => {
    set((s) => {
      const watched = { ...s.watched };
      if (next) watched[taskId] = next;
      else delete watched[taskId];
      return { watched };
    });
  };

  /** Tells the person about `task`, in the one way that fits right now. */
  const tell = (task: Task, agentSlug: string): void => {
    const name = get().agents.list.find((a) => a.slug === agentSlug)?.display_name ?? agentSlug;
    const notice = taskNotice(task, name);
    if (!notice) return;
    const toast = (): void => void get().toast(notice.toast.kind, notice.toast.message, notice.toast.link);
    // In front the page itself is the place; a notification would only repeat it from the corner.
    const notify = pageInFront() ? undefined : desktopNotifier();
    if (!notify) {
      toast();
      return;
    }
    // The desktop shell announces every prompt itself (its own notification opens it): not twice.
    if (task.status === 'INPUT_REQUIRED') return;
    // A refused notification (the OS has them off, an older shell) must still reach the person.
    notify(notice.notification).catch(toast);
  };

  /** One watched task's new state: told, and forgotten when it is the end. */
  const advance = (task: Task): void => {
    const watching = get().watched[task.task_id];
    if (!watching || task.updated_at < watching.seenAt) return;
    const status = task.status;
    if (!isNoticeStatus(status)) {
      if (task.updated_at !== watching.seenAt) patchWatched(task.task_id, { ...watching, seenAt: task.updated_at });
      return;
    }
    if (status === 'INPUT_REQUIRED') {
      if (watching.askedAt !== undefined && task.updated_at <= watching.askedAt) return;
      patchWatched(task.task_id, { ...watching, seenAt: task.updated_at, askedAt: task.updated_at });
    } else if (TERMINAL_STATUSES.includes(status)) {
      patchWatched(task.task_id, undefined);
    }
    tell(task, watching.agentSlug);
  };

  return {
    watched: {},

    watchTask(task, agentSlug) {
      if (get().watched[task.task_id]) return;
      patchWatched(task.task_id, { agentSlug, seenAt: task.updated_at });
      const seen = recent.get(task.task_id);
      recent.delete(task.task_id);
      advance(seen && seen.updated_at >= task.updated_at ? seen : task);
    },

    applyWatchedUpdates(updates) {
      // Only each task's latest state in the batch: a question answered within the same batch is
      // no longer a question, and needs no notification.
      const latest = new Map<string, TaskUpdate>();
      for (const u of updates) {
        const prev = latest.get(u.task.task_id);
        if (!prev || u.eventId > prev.eventId) latest.set(u.task.task_id, u);
      }
      const watched = get().watched;
      for (const { task } of latest.values()) {
        if (watched[task.task_id]) advance(task);
        else remember(task);
      }
    },

    refreshWatched() {
      for (const taskId of Object.keys(get().watched)) {
        api.getTask(taskId).then(
          (detail) => advance(detail.task),
          (err: unknown) => {
            // Gone (deleted, purged): nothing will ever be told. Anything else: the next reset retries.
            if (isApiError(err) && err.status === 404) patchWatched(taskId, undefined);
          },
        );
      }
    },
  };
};
