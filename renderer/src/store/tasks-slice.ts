import type { TaskSummary } from '../../../main/shared/control-api.js';
import { errorMessage } from '../api/http.js';
import { EMPTY_FILTERS, applyTaskUpdates, type TaskFilters, type TaskUpdate } from './task-reducers.js';
import { PAGE_SIZE, type LoadStatus, type Slice } from './types.js';

export interface TaskListState {
  filters: TaskFilters;
  rows: TaskSummary[];
  total: number;
  nextCursor?: string;
  status: LoadStatus;
  error?: string;
  loadingMore: boolean;
  moreError?: string;
  /** The row the keyboard cursor is on (kept across navigation, like the scroll position). */
  selectedId?: string;
  /** When the last first-page request started (see LiveSlice: refetch what started before the stream). */
  requestedAt: number;
}

export interface TasksSlice {
  tasks: TaskListState;
  /** Loads the first page for the current filters (keeps the old rows on screen meanwhile). */
  loadTasks(): Promise<void>;
  loadMoreTasks(): Promise<void>;
  setTaskFilters(patch: Partial<TaskFilters>): void;
  selectTaskRow(taskId: string | undefined): void;
  applyTaskListUpdates(updates: readonly TaskUpdate[]): void;
}

export const tasksSlice: Slice<TasksSlice> = ({ api, now }) => (set, get) => {
  // Only the newest request may write: a slow answer for old filters must not replace a newer one.
  let generation = 0;
  // Updates that arrive while a page is on its way. The page may be a snapshot from before them,
  // so they are applied again on top of it (applying one twice gives the same row).
  let inFlight = 0;
  let buffered: TaskUpdate[] = [];
  const patch = (p: Partial<TaskListState>): void => set((s) => ({ tasks: { ...s.tasks, ...p } }));
  const begin = (): void => {
    inFlight++;
  };
  const end = (): TaskUpdate[] => {
    inFlight--;
    const updates = buffered;
    if (inFlight === 0) buffered = [];
    return updates;
  };

  return {
    tasks: { filters: EMPTY_FILTERS, rows: [], total: 0, status: 'idle', loadingMore: false, requestedAt: 0 },

    async loadTasks() {
      const gen = ++generation;
      const { filters } = get().tasks;
      patch({ status: get().tasks.status === 'ready' ? 'ready' : 'loading', requestedAt: now(), error: undefined });
      begin();
      try {
        const page = await api.listTasks({ ...queryOf(filters), limit: PAGE_SIZE });
        const updates = end();
        if (gen !== generation) return;
        const fresh = applyTaskUpdates({ rows: page.tasks, total: page.total, nextCursor: page.next_cursor }, updates, filters);
        patch({ ...fresh, status: 'ready', loadingMore: false, moreError: undefined });
      } catch (err) {
        end();
        if (gen !== generation) return;
        patch({ status: 'error', error: errorMessage(err) });
      }
    },

    async loadMoreTasks() {
      const { nextCursor, loadingMore, filters, status } = get().tasks;
      if (!nextCursor || loadingMore || status !== 'ready') return;
      const gen = generation;
      patch({ loadingMore: true, moreError: undefined });
      begin();
      try {
        const page = await api.listTasks({ ...queryOf(filters), limit: PAGE_SIZE, cursor: nextCursor });
        const updates = end();
        if (gen !== generation) return;
        const current = get().tasks;
        const have = new Set(current.rows.map((r) => r.task_id));
        // A task inserted live may also come in this page: keep one copy.
        const appended = page.tasks.filter((t) => !have.has(t.task_id));
        const merged = applyTaskUpdates({ rows: appended, total: 0, nextCursor: page.next_cursor }, updates.filter((u) => !have.has(u.task.task_id)), filters);
        patch({ rows: [...current.rows, ...merged.rows], nextCursor: page.next_cursor, total: page.total, loadingMore: false });
      } catch (err) {
        end();
        if (gen !== generation) return;
        patch({ loadingMore: false, moreError: errorMessage(err) });
      }
    },

    setTaskFilters(p) {
      const filters = { ...get().tasks.filters, ...p };
      // New filters: the old rows would be wrong, so show loading rather than stale rows.
      generation++;
      patch({ filters, status: 'loading', rows: [], total: 0, nextCursor: undefined });
      void get().loadTasks();
    },

    selectTaskRow(taskId) {
      patch({ selectedId: taskId });
    },

    applyTaskListUpdates(updates) {
      if (inFlight > 0) buffered.push(...updates);
      const t = get().tasks;
      if (t.status !== 'ready') return;
      const next = applyTaskUpdates(t, updates, t.filters);
      if (next !== t) patch({ rows: next.rows, total: next.total });
    },
  };
};

function queryOf(filters: TaskFilters): { status?: TaskFilters['status']; agent?: string[]; q?: string } {
  const q: { status?: TaskFilters['status']; agent?: string[]; q?: string } = {};
  if (filters.status.length > 0) q.status = filters.status;
  if (filters.agent.length > 0) q.agent = filters.agent;
  if (filters.q.trim()) q.q = filters.q.trim();
  return q;
}
