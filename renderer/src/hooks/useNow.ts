import { useSyncExternalStore } from 'react';

/**
 * The current time, updated once a minute for every subscriber at the same moment (one timer for
 * the whole app), so "5 min ago" labels stay true without re-rendering every second.
 */
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setTimeout> | undefined;

function tick(): void {
  now = Date.now();
  for (const l of listeners) l();
  // Align to the wall-clock minute so labels change together.
  timer = setTimeout(tick, 60_000 - (now % 60_000) + 50);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) {
    now = Date.now();
    timer = setTimeout(tick, 60_000 - (now % 60_000) + 50);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) clearTimeout(timer);
  };
}

export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now);
}
