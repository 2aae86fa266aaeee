/**
 * Tasks waiting for the person at the desk: newest question first, each with its prompt and an
 * answer form, a page at a time ("Load more"); the heading counts them all. Answering removes the
 * card at once (it comes back with the error if the host refuses).
 */
import type { InboxItem } from '../../../main/shared/control-api.js';
import { AnswerForm } from '../components/AnswerForm.js';
import { Icon } from '../components/Icon.js';
import { RelativeTime } from '../components/RelativeTime.js';
import { EmptyState, ErrorState, SkeletonRows } from '../components/States.js';
import { formatCount, plural, shortId } from '../lib/format.js';
import { taskHref } from '../lib/route.js';
import type { AnswerFailure } from '../store/inbox-slice.js';
import { useActions, useApp } from '../store/react.js';
import { ViewHeader } from './ViewHeader.js';

export function InboxView() {
  const inbox = useApp((s) => s.inbox);
  const { loadInbox, loadMoreInbox } = useActions();
  const count = inbox.items.length;
  const total = inbox.total;
  return (
    <div className="view view-inbox">
      <ViewHeader title="Inbox" subtitle={inbox.status === 'ready' ? (total === 0 ? 'Nothing waiting' : `${plural(total, 'task')} waiting for your answer`) : undefined} />
      <div className="view-body view-scroll">
        {inbox.status === 'loading' || inbox.status === 'idle' ? (
          <SkeletonRows rows={3} label="Loading the inbox" />
        ) : inbox.status === 'error' && count === 0 ? (
          <ErrorState title="Could not load the inbox" message={inbox.error ?? ''} onRetry={() => void loadInbox()} />
        ) : count === 0 ? (
          <EmptyState icon="inbox" title="You’re all caught up">
            <p>When an agent needs your input, its question appears here — and in the window title, so you see it from any tab.</p>
            <a className="btn btn-sm" href="#/tasks">
              <Icon name="tasks" size={14} /> See all tasks
            </a>
          </EmptyState>
        ) : (
          <>
            <ul className="inbox-list" aria-label="Waiting for an answer">
              {inbox.items.map((item, i) => (
                <InboxCard key={item.task.task_id} item={item} failure={inbox.failures[item.task.task_id]} first={i === 0} />
              ))}
            </ul>
            {inbox.nextCursor !== undefined && (
              <div className="inbox-more">
                <span className="muted" aria-live="polite">
                  Showing {formatCount(count)} of {formatCount(Math.max(total, count))}
                </span>
                {inbox.moreError !== undefined && <span role="alert">Could not load more: {inbox.moreError}</span>}
                <button type="button" className="btn btn-sm" onClick={() => void loadMoreInbox()} disabled={inbox.loadingMore} aria-busy={inbox.loadingMore}>
                  {inbox.loadingMore ? 'Loading…' : inbox.moreError !== undefined ? 'Try again' : 'Load more'}
                </button>
              </div>
            )}
          </>
        )}
      </div>
    </div>
  );
}

function InboxCard({ item, failure, first }: { item: InboxItem; failure: AnswerFailure | undefined; first: boolean }) {
  const { task } = item;
  const headingId = `inbox-${task.task_id}`;
  return (
    <li className="card inbox-card" aria-labelledby={headingId}>
      <div className="inbox-meta">
        <span className="agent-pill">
          <Icon name="agents" size={13} />
          {item.agent_display_name}
        </span>
        <a className="mono-link" href={taskHref(task.task_id)} title="Open the task">
          {shortId(task.task_id)}
        </a>
        <span className="muted">
          asked <RelativeTime iso={task.updated_at} />
        </span>
      </div>
      <h2 className="inbox-prompt" id={headingId}>
        {task.prompt ?? 'The agent is waiting for input.'}
      </h2>
      <AnswerForm task={task} failure={failure} autoFocus={first} />
    </li>
  );
}
