/**
 * What the inbox says when a prompt asked for by its link cannot be answered here: the task no
 * longer waits (answered elsewhere, cancelled, failed), does not exist, or could not be fetched.
 * Nothing while the prompt is shown (or loading, or was just answered from this page).
 */
import type { Ref } from 'react';
import { Icon } from '../components/Icon.js';
import { StatusChip } from '../components/StatusChip.js';
import { shortId } from '../lib/format.js';
import { taskHref } from '../lib/route.js';
import type { InboxTarget } from '../store/inbox-slice.js';
import { useApp } from '../store/react.js';

export function PromptNotice({ target, onRetry, ref }: { target: InboxTarget; onRetry: () => void; ref?: Ref<HTMLDivElement> }) {
  const agentSlug = target.status === 'gone' ? target.agentSlug : '';
  const agentName = useApp((s) => s.agents.list.find((a) => a.slug === agentSlug)?.display_name ?? agentSlug);
  const dismiss = (
    <a className="btn btn-sm btn-ghost" href="#/inbox">
      Dismiss
    </a>
  );

  if (target.status === 'gone') {
    const { task } = target;
    const ended = task.status === 'CANCELLED' || task.status === 'FAILED';
    return (
      <div className="callout callout-info prompt-notice" role="status" tabIndex={-1} ref={ref} aria-labelledby="prompt-notice-title">
        <div className="callout-title" id="prompt-notice-title">
          <Icon name={ended ? 'info' : 'check'} size={16} />
          {ended ? `This prompt no longer waits: the task ${task.status === 'CANCELLED' ? 'was cancelled' : 'failed'}` : 'This prompt was already answered'}
        </div>
        <p className="callout-text">
          {agentName} · <span className="mono">{shortId(task.task_id)}</span> no longer waits for an answer; it is <StatusChip status={task.status} size="sm" /> now.
          {!ended && ' It was answered elsewhere: in another window, from the command line or by an orchestrator over the API.'}
        </p>
        <div className="form-actions">
          <a className="btn btn-sm" href={taskHref(task.task_id)}>
            <Icon name="tasks" size={14} /> Open the task
          </a>
          {dismiss}
        </div>
      </div>
    );
  }
  if (target.status === 'not-found') {
    return (
      <div className="callout callout-attention prompt-notice" role="status" tabIndex={-1} ref={ref} aria-labelledby="prompt-notice-title">
        <div className="callout-title" id="prompt-notice-title">
          <Icon name="search" size={16} /> No such task
        </div>
        <p className="callout-text">
          Task <span className="mono">{shortId(target.taskId)}</span> does not exist: it may have been deleted by the retention policy, or the link is wrong.
        </p>
        <div className="form-actions">{dismiss}</div>
      </div>
    );
  }
  if (target.status === 'error') {
    return (
      <div className="callout callout-danger prompt-notice" role="alert" tabIndex={-1} ref={ref} aria-labelledby="prompt-notice-title">
        <div className="callout-title" id="prompt-notice-title">
          <Icon name="alert" size={16} /> Could not open this prompt
        </div>
        <p className="callout-text">{target.message}</p>
        <div className="form-actions">
          <button type="button" className="btn btn-sm" onClick={onRetry}>
            <Icon name="refresh" size={14} /> Try again
          </button>
          {dismiss}
        </div>
      </div>
    );
  }
  return null;
}
