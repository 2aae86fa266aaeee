import type { AgentDirectory } from '../agents/loaded-agent.js';
import type { Logger } from '../logger.js';
import type { TaskQueries } from '../store/task-queries.js';
import type { StatusChange, TaskRecord, TaskStore } from '../store/task-store.js';

/** A task waiting for the person's answer, as the tray and native notifications show it. */
export interface WaitingPrompt {
  task_id: string;
  agent_slug: string;
  /** The registry's display name; the slug if the agent is gone. */
  agent_display_name: string;
  /** The INPUT_REQUIRED prompt text (what the inbox shows). */
  prompt: string;
  /** ISO time the task entered INPUT_REQUIRED. */
  since: string;
}

export type PromptChange = { kind: 'entered'; prompt: WaitingPrompt } | { kind: 'left'; task_id: string };

export interface PromptFeed {
  /** Tasks waiting for an answer, newest first, at most `limit` of them, plus the exact total. */
  waiting(limit: number): { total: number; prompts: WaitingPrompt[] };
  /**
   * Called after commit when a task enters INPUT_REQUIRED or leaves it (answered, cancelled,
   * failed...). Listeners must not throw; one that does is logged and the others still hear.
   * Returns the unsubscribe function.
   */
  on(listener: (change: PromptChange) => void): () => void;
}

export interface PromptFeedOptions {
  store: Pick<TaskStore, 'onStatusChange'>;
  queries: Pick<TaskQueries, 'waitingTasks' | 'countTasks'>;
  agents: AgentDirectory;
  logger: Logger;
}

/** Only INPUT_REQUIRED tasks: the `tasks_status (status, seq)` index counts them. */
const WAITING_FILTER = { statuses: ['INPUT_REQUIRED'], agents: [] } as const;

/**
 * The prompts waiting for the person, for the desktop shell: a snapshot in the inbox's order (the
 * inbox's own query, by the status index, so it stays cheap with thousands waiting) and the
 * committed moves into and out of INPUT_REQUIRED. Tasks found waiting at start are in the
 * snapshot; only later moves are announced.
 */
export class TaskPromptFeed implements PromptFeed {
  private readonly listeners = new Set<(change: PromptChange) => void>();

  constructor(private readonly options: PromptFeedOptions) {
    options.store.onStatusChange((change) => this.onStatusChange(change));
  }

  waiting(limit: number): { total: number; prompts: WaitingPrompt[] } {
    if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`limit must be a whole number >= 0, not ${limit}`);
    const { queries } = this.options;
    const records = limit === 0 ? [] : queries.waitingTasks(limit);
    // Fewer than asked for: that is all of them, no count needed.
    const total = records.length < limit ? records.length : queries.countTasks(WAITING_FILTER);
    return { total, prompts: records.map((record) => this.toWaitingPrompt(record)) };
  }

  on(listener: (change: PromptChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private onStatusChange({ record, previous }: StatusChange): void {
    if (this.listeners.size === 0) return;
    const waitingNow = record.task.status === 'INPUT_REQUIRED';
    const waitingBefore = previous === 'INPUT_REQUIRED';
    if (waitingNow === waitingBefore) return;
    this.announce(waitingNow ? { kind: 'entered', prompt: this.toWaitingPrompt(record) } : { kind: 'left', task_id: record.task.task_id });
  }

  private announce(change: PromptChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (err) {
        this.options.logger.error({ err, task_id: taskIdOf(change) }, 'a prompt feed listener failed');
      }
    }
  }

  private toWaitingPrompt(record: TaskRecord): WaitingPrompt {
    const { task, agentSlug } = record;
    return {
      task_id: task.task_id,
      agent_slug: agentSlug,
      agent_display_name: this.options.agents.get(agentSlug)?.manifest.display_name ?? agentSlug,
      prompt: task.prompt ?? '',
      // A waiting task's row changes only when it leaves INPUT_REQUIRED: updated_at is its entry.
      since: task.updated_at,
    };
  }
}

function taskIdOf(change: PromptChange): string {
  return change.kind === 'entered' ? change.prompt.task_id : change.task_id;
}
