/**
 * Coalesces bursts: an agent writing 50 artifacts in a second should cost one refetch, not 50.
 * With a delay of 0 the work runs at once (unit tests, no timers to wait for).
 */
export type Schedule = (key: string, run: () => void) => void;

export function createScheduler(delayMs: number): Schedule {
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  return (key, run) => {
    if (delayMs <= 0) {
      run();
      return;
    }
    if (timers.has(key)) return;
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        run();
      }, delayMs),
    );
  };
}
