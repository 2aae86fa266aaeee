/**
 * The app store: one zustand store made of slices (session, live connection, tasks, detail,
 * inbox, agents, artifacts, settings, intake, toasts, watched tasks). Built by a factory so the
 * app and each unit test get their own instance with their own API.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ControlApi } from '../api/client.js';
import { pageInFront } from '../lib/page-focus.js';
import { agentsSlice } from './agents-slice.js';
import { artifactsSlice } from './artifacts-slice.js';
import { detailSlice } from './detail-slice.js';
import { inboxSlice } from './inbox-slice.js';
import { intakeSlice } from './intake-slice.js';
import { liveSlice } from './live-slice.js';
import { sessionSlice } from './session-slice.js';
import { settingsSlice } from './settings-slice.js';
import { tasksSlice } from './tasks-slice.js';
import { toastsSlice } from './toasts-slice.js';
import type { AppState, SliceDeps } from './types.js';
import { watchedTasksSlice } from './watched-tasks-slice.js';

export type AppStore = StoreApi<AppState>;

export interface AppStoreOptions {
  now?: () => number;
  /** Delay that coalesces event-triggered refetches (default 250 ms; 0 runs them at once). */
  debounceMs?: number;
  /** Whether the page is in front (default: its document's visibility and focus). */
  pageInFront?: () => boolean;
}

export function createAppStore(api: ControlApi, options: AppStoreOptions = {}): AppStore {
  const deps: SliceDeps = {
    api,
    now: options.now ?? (() => Date.now()),
    debounceMs: options.debounceMs ?? 250,
    pageInFront: options.pageInFront ?? pageInFront,
  };
  return createStore<AppState>()((...a) => ({
    ...sessionSlice(deps)(...a),
    ...liveSlice(deps)(...a),
    ...tasksSlice(deps)(...a),
    ...detailSlice(deps)(...a),
    ...inboxSlice(deps)(...a),
    ...agentsSlice(deps)(...a),
    ...artifactsSlice(deps)(...a),
    ...settingsSlice(deps)(...a),
    ...intakeSlice(deps)(...a),
    ...toastsSlice(deps)(...a),
    ...watchedTasksSlice(deps)(...a),
  }));
}

export type { AppState } from './types.js';
