/**
 * The shape of the one app store, assembled from slices. Each slice file adds its state and its
 * actions; they reach each other through `get()`, never through module globals, so every store
 * instance (the app's, each unit test's) is independent.
 */
import type { StateCreator } from 'zustand/vanilla';
import type { ControlApi } from '../api/client.js';
import type { AgentsSlice } from './agents-slice.js';
import type { ArtifactsSlice } from './artifacts-slice.js';
import type { DetailSlice } from './detail-slice.js';
import type { InboxSlice } from './inbox-slice.js';
import type { IntakeSlice } from './intake-slice.js';
import type { LiveSlice } from './live-slice.js';
import type { SessionSlice } from './session-slice.js';
import type { SettingsSlice } from './settings-slice.js';
import type { TasksSlice } from './tasks-slice.js';
import type { ToastsSlice } from './toasts-slice.js';
import type { WatchedTasksSlice } from './watched-tasks-slice.js';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

export type AppState = SessionSlice &
  LiveSlice &
  TasksSlice &
  DetailSlice &
  InboxSlice &
  AgentsSlice &
  ArtifactsSlice &
  SettingsSlice &
  IntakeSlice &
  ToastsSlice &
  WatchedTasksSlice;

/** What every slice creator gets beside zustand's set/get: the API, and a clock for tests. */
export interface SliceDeps {
  api: ControlApi;
  /** Milliseconds; performance.now-like (only differences matter). */
  now: () => number;
  /** Coalescing delay for refetches triggered by bursts of events (0 in tests: run at once). */
  debounceMs: number;
  /** Whether the person is looking at the page (its tab shown, its window focused). */
  pageInFront: () => boolean;
}

export type Slice<T> = (deps: SliceDeps) => StateCreator<AppState, [], [], T>;

/** Page size of the task and artifact lists: large enough that a fast scroll rarely waits. */
export const PAGE_SIZE = 200;
