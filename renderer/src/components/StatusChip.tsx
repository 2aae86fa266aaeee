import type { TaskStatus } from '../../../main/shared/protocol.js';

export const STATUS_LABEL: Record<TaskStatus, string> = {
  SUBMITTED: 'Queued',
  WORKING: 'Working',
  INPUT_REQUIRED: 'Needs input',
  COMPLETED: 'Completed',
  FAILED: 'Failed',
  CANCELLED: 'Cancelled',
};

/** A task's status as a coloured chip; the protocol's name is in the tooltip for people who know it. */
export function StatusChip({ status, size = 'md' }: { status: TaskStatus; size?: 'sm' | 'md' }) {
  return (
    <span className={`chip chip-${status.toLowerCase()} chip-${size}`} title={status}>
      <span className="chip-dot" aria-hidden="true" />
      {STATUS_LABEL[status]}
    </span>
  );
}
