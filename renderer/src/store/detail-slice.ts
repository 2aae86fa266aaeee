import type { DeliveryAttempt, TaskDetail } from '../../../main/shared/control-api.js';
import type { Task, TaskEvent } from '../../../main/shared/protocol.js';
import { isTerminal } from '../../../main/shared/task-states.js';
import { errorMessage, isApiError } from '../api/http.js';
import { createScheduler } from './debounce.js';
import { applyEventsToDetail, prependEvents } from './task-reducers.js';
import type { LoadStatus, Slice } from './types.js';

export interface AttemptsState {
  status: LoadStatus;
  items: DeliveryAttempt[];
  error?: string;
}

export interface DetailState {
  taskId?: string;
  data?: TaskDetail;
  status: LoadStatus;
  error?: string;
  /** The task does not exist (404): a designed "not found" instead of an error. */
  notFound: boolean;
  loadingEarlier: boolean;
  cancelling: boolean;
  attempts: Record<number, AttemptsState>;
  redelivering: Record<number, boolean>;
  requestedAt: number;
}

export interface DetailSlice {
  detail: DetailState;
  openTask(taskId: string): void;
  closeTask(): void;
  reloadDetail(): Promise<void>;
  loadEarlierEvents(): Promise<void>;
  /** Cancels a task; resolves false (after a toast) when the host refused. */
  cancelTask(taskId: string): Promise<boolean>;
  loadAttempts(deliveryId: number): Promise<void>;
  redeliver(deliveryId: number): Promise<void>;
  applyDetailEvents(events: readonly TaskEvent[]): void;
  /** The detail's task as the answer flow changes it (optimistic WORKING, or the rollback). */
  setDetailTask(task: Task): void;
  refreshDetailArtifacts(taskId: string): void;
  refreshDetailDeliveries(): void;
}

/** "Load earlier" fetches this many events at a time. */
const EARLIER_PAGE = 500;

const EMPTY: DetailState = {
  status: 'idle',
  notFound: false,
  loadingEarlier: false,
  cancelling: false,
  attempts: {},
  redelivering: {},
  requestedAt: 0,
};

export const detailSlice: Slice<DetailSlice> = ({ api, now, debounceMs }) => (set, get) => {
  const schedule = createScheduler(debounceMs);
  let generation = 0;
  // Events for the open task that arrive while its detail loads; applied on top (by id, so no duplicates).
  let buffered: TaskEvent[] = [];
  const patch = (p: Partial<DetailState>): void => set((s) => ({ detail: { ...s.detail, ...p } }));
  const patchData = (update: (d: TaskDetail) => TaskDetail): void =>
    set((s) => (s.detail.data ? { detail: { ...s.detail, data: update(s.detail.data) } } : {}));

  return {
    detail: EMPTY,

    openTask(taskId) {
      if (get().detail.taskId === taskId && get().detail.status !== 'error') return;
      set({ detail: { ...EMPTY, taskId, status: 'loading' } });
      void get().reloadDetail();
    },

    closeTask() {
      generation++;
      buffered = [];
      set({ detail: EMPTY });
    },

    async reloadDetail() {
      const { taskId } = get().detail;
      if (!taskId) return;
      const gen = ++generation;
      buffered = [];
      patch({ requestedAt: now(), error: undefined });
      try {
        const data = await api.getTask(taskId);
        if (gen !== generation) return;
        const withLive = applyEventsToDetail(data, buffered);
        buffered = [];
        patch({ data: withLive, status: 'ready', notFound: false });
      } catch (err) {
        if (gen !== generation) return;
        const notFound = isApiError(err) && err.status === 404;
        patch({ status: 'error', error: errorMessage(err), notFound });
      }
    },

    async loadEarlierEvents() {
      const { data, loadingEarlier, taskId } = get().detail;
      const first = data?.events[0];
      if (!data || !first || loadingEarlier || !data.more_events_before || !taskId) return;
      patch({ loadingEarlier: true });
      try {
        const page = await api.getTaskEvents(taskId, { before: first.id, limit: EARLIER_PAGE });
        if (get().detail.taskId !== taskId) return;
        patchData((d) => prependEvents(d, page.events, page.more_before));
      } catch (err) {
        get().toast('error', `Could not load earlier events: ${errorMessage(err)}`);
      } finally {
        if (get().detail.taskId === taskId) patch({ loadingEarlier: false });
      }
    },

    async cancelTask(taskId) {
      patch({ cancelling: true });
      try {
        const task = await api.cancelTask(taskId);
        // Show the outcome at once; the status event that follows carries the same task.
        if (get().detail.data?.task.task_id === taskId && isTerminal(task.status)) get().setDetailTask(task);
        get().toast('success', 'Task cancelled.');
        return true;
      } catch (err) {
        get().toast('error', `Could not cancel the task: ${errorMessage(err)}`);
        return false;
      } finally {
        patch({ cancelling: false });
      }
    },

    async loadAttempts(deliveryId) {
      set((s) => ({ detail: { ...s.detail, attempts: { ...s.detail.attempts, [deliveryId]: { status: 'loading', items: s.detail.attempts[deliveryId]?.items ?? [] } } } }));
      try {
        const items = await api.getDeliveryAttempts(deliveryId);
        set((s) => ({ detail: { ...s.detail, attempts: { ...s.detail.attempts, [deliveryId]: { status: 'ready', items } } } }));
      } catch (err) {
        set((s) => ({ detail: { ...s.detail, attempts: { ...s.detail.attempts, [deliveryId]: { status: 'error', items: [], error: errorMessage(err) } } } }));
      }
    },

    async redeliver(deliveryId) {
      set((s) => ({ detail: { ...s.detail, redelivering: { ...s.detail.redelivering, [deliveryId]: true } } }));
      try {
        await api.redeliver(deliveryId);
        get().toast('info', 'Redelivery queued.');
        get().refreshDetailDeliveries();
        if (get().detail.attempts[deliveryId]) void get().loadAttempts(deliveryId);
      } catch (err) {
        get().toast('error', `Could not redeliver: ${errorMessage(err)}`);
      } finally {
        set((s) => {
          const { [deliveryId]: _done, ...rest } = s.detail.redelivering;
          return { detail: { ...s.detail, redelivering: rest } };
        });
      }
    },

    applyDetailEvents(events) {
      const { taskId, status } = get().detail;
      if (!taskId) return;
      const mine = events.filter((e) => e.task_id === taskId);
      if (mine.length === 0) return;
      if (status !== 'ready') {
        buffered.push(...mine);
        return;
      }
      patchData((d) => applyEventsToDetail(d, mine));
    },

    setDetailTask(task) {
      patchData((d) => (d.task.task_id === task.task_id ? { ...d, task } : d));
    },

    refreshDetailArtifacts(taskId) {
      schedule(`artifacts:${taskId}`, () => {
        void (async () => {
          try {
            const page = await api.listArtifacts({ task: taskId, limit: 500 });
            const artifacts = page.artifacts.map((item) => item.artifact).sort((a, b) => (a.metadata.created_at < b.metadata.created_at ? -1 : 1));
            patchData((d) => (d.task.task_id === taskId ? { ...d, artifacts } : d));
          } catch {
            // The next artifact event or a reload tries again; the list keeps what it had.
          }
        })();
      });
    },

    refreshDetailDeliveries() {
      const taskId = get().detail.taskId;
      if (!taskId || !get().detail.data) return;
      schedule(`deliveries:${taskId}`, () => {
        void (async () => {
          try {
            const page = await api.listDeliveries({ task: taskId, limit: 100 });
            patchData((d) => (d.task.task_id === taskId ? { ...d, deliveries: page.deliveries } : d));
          } catch {
            // As above: the next change event tries again.
          }
        })();
      });
    },
  };
};
