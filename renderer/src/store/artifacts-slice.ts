import type { ArtifactListItem } from '../../../main/shared/control-api.js';
import { errorMessage } from '../api/http.js';
import { createScheduler } from './debounce.js';
import { PAGE_SIZE, type LoadStatus, type Slice } from './types.js';

export interface ArtifactFilters {
  /** Agent slug, or '' for every agent. */
  agent: string;
  /** Task id, or '' for every task. */
  task: string;
}

export interface ArtifactsState {
  filters: ArtifactFilters;
  items: ArtifactListItem[];
  nextCursor?: string;
  status: LoadStatus;
  error?: string;
  loadingMore: boolean;
  selectedId?: string;
  requestedAt: number;
  /** The artifacts view is on screen: new artifacts are fetched as they are made. */
  watching: boolean;
  /** Artifacts were made while nobody watched: fetch the newest when the view opens. */
  stale: boolean;
}

export interface ArtifactsSlice {
  artifacts: ArtifactsState;
  loadArtifacts(): Promise<void>;
  loadMoreArtifacts(): Promise<void>;
  setArtifactFilters(patch: Partial<ArtifactFilters>): void;
  selectArtifact(id: string | undefined): void;
  /** New artifacts were created: fetch the newest page and put the new ones on top (now, or when the view opens). */
  refreshNewArtifacts(): void;
  watchArtifacts(on: boolean): void;
}

export const artifactsSlice: Slice<ArtifactsSlice> = ({ api, now, debounceMs }) => (set, get) => {
  let generation = 0;
  const schedule = createScheduler(debounceMs);
  const patch = (p: Partial<ArtifactsState>): void => set((s) => ({ artifacts: { ...s.artifacts, ...p } }));
  const query = (f: ArtifactFilters): { agent?: string; task?: string } => ({
    ...(f.agent ? { agent: f.agent } : {}),
    ...(f.task.trim() ? { task: f.task.trim() } : {}),
  });

  return {
    artifacts: { filters: { agent: '', task: '' }, items: [], status: 'idle', loadingMore: false, requestedAt: 0, watching: false, stale: false },

    async loadArtifacts() {
      const gen = ++generation;
      if (get().artifacts.status !== 'ready') patch({ status: 'loading' });
      patch({ requestedAt: now(), error: undefined });
      try {
        const page = await api.listArtifacts({ ...query(get().artifacts.filters), limit: PAGE_SIZE });
        if (gen !== generation) return;
        patch({ items: page.artifacts, nextCursor: page.next_cursor, status: 'ready', loadingMore: false });
      } catch (err) {
        if (gen !== generation) return;
        patch({ status: 'error', error: errorMessage(err) });
      }
    },

    async loadMoreArtifacts() {
      const { nextCursor, loadingMore, status, filters } = get().artifacts;
      if (!nextCursor || loadingMore || status !== 'ready') return;
      const gen = generation;
      patch({ loadingMore: true });
      try {
        const page = await api.listArtifacts({ ...query(filters), limit: PAGE_SIZE, cursor: nextCursor });
        if (gen !== generation) return;
        const have = new Set(get().artifacts.items.map((i) => i.artifact.artifact_id));
        patch({
          items: [...get().artifacts.items, ...page.artifacts.filter((i) => !have.has(i.artifact.artifact_id))],
          nextCursor: page.next_cursor,
          loadingMore: false,
        });
      } catch (err) {
        if (gen !== generation) return;
        patch({ loadingMore: false });
        get().toast('error', `Could not load more artifacts: ${errorMessage(err)}`);
      }
    },

    setArtifactFilters(p) {
      generation++;
      patch({ filters: { ...get().artifacts.filters, ...p }, items: [], nextCursor: undefined, status: 'loading' });
      void get().loadArtifacts();
    },

    selectArtifact(id) {
      patch({ selectedId: id });
    },

    watchArtifacts(on) {
      patch({ watching: on });
      if (on && get().artifacts.stale) {
        patch({ stale: false });
        get().refreshNewArtifacts();
      }
    },

    refreshNewArtifacts() {
      const { status, watching } = get().artifacts;
      if (status !== 'ready') return;
      if (!watching) {
        patch({ stale: true });
        return;
      }
      schedule('artifacts', () => {
        const gen = generation;
        void (async () => {
          try {
            const page = await api.listArtifacts({ ...query(get().artifacts.filters), limit: PAGE_SIZE });
            if (gen !== generation) return;
            const have = new Set(get().artifacts.items.map((i) => i.artifact.artifact_id));
            const fresh = page.artifacts.filter((i) => !have.has(i.artifact.artifact_id));
            if (fresh.length > 0) patch({ items: [...fresh, ...get().artifacts.items] });
          } catch {
            // Shown on the next load; a live refresh failing is not worth interrupting anyone.
          }
        })();
      });
    },
  };
};
