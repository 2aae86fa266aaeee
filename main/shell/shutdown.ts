/**
 * Quitting, in order, once: each step runs after the previous one finished (or failed: a step that
 * throws is logged and the rest still run, so the database is closed whatever happened before).
 * The order the shell uses: say so in the tray and hide the window, stop notifications and IPC,
 * close the host (stop intake → running tasks finish or see cancel within the grace period → due
 * webhook deliveries flushed → database closed), remove the tray and window, exit.
 */
export interface ShutdownStep {
  name: string;
  run: () => void | Promise<void>;
  /**
   * Past this many ms the step counts as failed and quitting goes on: an app must not hang on
   * quit. `describeWait` says what the step was still waiting for, for the log.
   */
  timeoutMs?: number;
  describeWait?: () => string;
}

export interface ShutdownReport {
  completed: string[];
  failed: { name: string; error: string }[];
}

export class ShutdownSequence {
  private running: Promise<ShutdownReport> | undefined;

  constructor(
    private readonly steps: readonly ShutdownStep[],
    private readonly log: (message: string, detail?: Record<string, unknown>) => void,
  ) {}

  get started(): boolean {
    return this.running !== undefined;
  }

  /** Runs the steps; later calls get the same (first) run. */
  run(): Promise<ShutdownReport> {
    this.running ??= (async () => {
      const report: ShutdownReport = { completed: [], failed: [] };
      for (const step of this.steps) {
        try {
          await withTimeout(step);
          report.completed.push(step.name);
        } catch (err) {
          const error = (err as Error).message ?? String(err);
          this.log('shutdown step failed', { step: step.name, error });
          report.failed.push({ name: step.name, error });
        }
      }
      return report;
    })();
    return this.running;
  }
}

function withTimeout(step: ShutdownStep): Promise<void> {
  // Started at once (not a tick later): the first steps' effects are visible as soon as quit begins.
  let work: Promise<void>;
  try {
    work = Promise.resolve(step.run());
  } catch (err) {
    work = Promise.reject(err as Error);
  }
  if (step.timeoutMs === undefined) return work;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const waiting = step.describeWait?.();
      reject(new Error(`timed out after ${step.timeoutMs} ms${waiting ? `; still waiting for: ${waiting}` : ''}`));
    }, step.timeoutMs);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
