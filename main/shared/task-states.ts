import type { TaskStatus } from './protocol.js';

/**
 * The task state machine. The protocol's diagram, plus cancel from every non-terminal state: the
 * cancel endpoint must move any open task to CANCELLED, including one still queued (SUBMITTED) or
 * waiting for its prompt to be answered (INPUT_REQUIRED). Terminal states have no way out.
 */
export const ALLOWED_TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  SUBMITTED: ['WORKING', 'CANCELLED'],
  WORKING: ['INPUT_REQUIRED', 'COMPLETED', 'FAILED', 'CANCELLED'],
  INPUT_REQUIRED: ['WORKING', 'CANCELLED'],
  COMPLETED: [],
  FAILED: [],
  CANCELLED: [],
};

export function isTerminal(status: TaskStatus): boolean {
  return ALLOWED_TRANSITIONS[status].length === 0;
}

export function canTransition(from: TaskStatus, to: TaskStatus): boolean {
  return ALLOWED_TRANSITIONS[from].includes(to);
}

/** The states a task must be in for a move to `to`. */
export function statusesLeadingTo(to: TaskStatus): TaskStatus[] {
  return (Object.keys(ALLOWED_TRANSITIONS) as TaskStatus[]).filter((from) =>
    ALLOWED_TRANSITIONS[from].includes(to),
  );
}
