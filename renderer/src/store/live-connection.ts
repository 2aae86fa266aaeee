/**
 * The one EventSource on /api/events. The browser reconnects by itself and sends Last-Event-ID,
 * so the host replays what we missed; only when the browser gives up (an HTTP error) do we make a
 * new EventSource, and then refetch, since a new EventSource starts without Last-Event-ID.
 *
 * Events are applied in batches, at most one per frame: a burst of 500 log lines re-renders once,
 * not 500 times. (A timer, not requestAnimationFrame: a background tab must still update its
 * title with the inbox count, and rAF does not run there.)
 */
import { CONTROL_EVENT_NAMES, type ControlEvent } from '../../../main/shared/control-api.js';
import { parseControlEvent } from './control-events.js';
import type { AppStore } from './app-store.js';

/** Stop holding views back after this long without the stream: load anyway, refetch when it opens. */
const READY_TIMEOUT_MS = 1500;
/** Backoff for our own reconnects (the browser's own use the server's `retry:`). */
const BACKOFF_MS = [1000, 2000, 5000, 10_000, 30_000];
/**
 * Silence longer than this means a dead connection (a laptop that slept keeps a socket that looks
 * open): start again. The host pings idle streams well within it.
 */
const SILENCE_MS = 90_000;
const BATCH_MS = 16;

export function connectLive(store: AppStore, url = '/api/events'): () => void {
  let source: EventSource | undefined;
  let stopped = false;
  let failures = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let silenceTimer: ReturnType<typeof setTimeout> | undefined;
  let queue: ControlEvent[] = [];
  let frame: ReturnType<typeof setTimeout> | undefined;
  const readyTimer = setTimeout(() => store.getState().setDataReady(), READY_TIMEOUT_MS);

  const flush = (): void => {
    frame = undefined;
    const batch = queue;
    queue = [];
    if (batch.length > 0) store.getState().receive(batch);
  };
  const enqueue = (event: ControlEvent): void => {
    queue.push(event);
    frame ??= setTimeout(flush, BATCH_MS);
  };

  const heard = (): void => {
    if (silenceTimer) clearTimeout(silenceTimer);
    silenceTimer = setTimeout(() => {
      source?.close();
      open();
    }, SILENCE_MS);
  };

  const open = (): void => {
    if (stopped) return;
    const es = new EventSource(url);
    source = es;
    let openedOnce = false;
    es.onopen = () => {
      heard();
      failures = 0;
      const state = store.getState();
      state.setConnection('live');
      if (!openedOnce) {
        openedOnce = true;
        clearTimeout(readyTimer);
        if (state.dataReady) {
          // A new EventSource resumes nothing: whatever loaded before it opened may be behind.
          state.refreshAll(Date.now());
        } else state.setDataReady();
      }
    };
    es.onerror = () => {
      if (source !== es) return;
      const state = store.getState();
      if (es.readyState === EventSource.CONNECTING) {
        state.setConnection('reconnecting');
        return;
      }
      // CLOSED: the browser will not retry (the answer was an HTTP error, e.g. 401 after the host
      // restarted). Find out whether the session is gone; otherwise try again after a pause.
      state.setConnection('reconnecting');
      es.close();
      void checkSessionThenRetry();
    };
    for (const name of CONTROL_EVENT_NAMES) {
      es.addEventListener(name, (msg) => {
        heard();
        if (name === 'ping') return;
        const event = parseControlEvent(name, (msg as MessageEvent<string>).data);
        if (event) enqueue(event);
      });
    }
  };

  const checkSessionThenRetry = async (): Promise<void> => {
    const delay = BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)]!;
    failures++;
    try {
      const res = await fetch('/api/session', { credentials: 'same-origin' });
      if (res.status === 401) {
        store.getState().sessionEnded();
        return;
      }
    } catch {
      // The host is not answering at all: keep trying, the indicator says "reconnecting".
    }
    if (!stopped) retryTimer = setTimeout(open, delay);
  };

  open();

  return () => {
    stopped = true;
    clearTimeout(readyTimer);
    if (retryTimer) clearTimeout(retryTimer);
    if (silenceTimer) clearTimeout(silenceTimer);
    if (frame !== undefined) clearTimeout(frame);
    source?.close();
  };
}
