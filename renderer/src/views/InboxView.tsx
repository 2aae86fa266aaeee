/**
 * Tasks waiting for the person at the desk: newest question first, each with its prompt and an
 * answer form, a page at a time ("Load more"); the heading counts them all. Answering removes the
 * card at once (it comes back with the error if the host refuses).
 *
 * `#/inbox/<taskId>` (a link, the tray, a notification click) opens one prompt: its card is
 * brought into view, highlighted, with the first field of its answer form focused; a card not on
 * the loaded pages is fetched and put on top. If the task no longer waits, a notice says so.
 */
import { useEffect, useRef, type RefObject } from 'react';
import type { InboxItem } from '../../../main/shared/control-api.js';
import { AnswerForm } from '../components/AnswerForm.js';
import { Icon } from '../components/Icon.js';
import { RelativeTime } from '../components/RelativeTime.js';
import { EmptyState, ErrorState, SkeletonRows } from '../components/States.js';
import { formatCount, plural, shortId } from '../lib/format.js';
import { taskHref } from '../lib/route.js';
import type { AnswerFailure, InboxTarget } from '../store/inbox-slice.js';
import { useActions, useApp } from '../store/react.js';
import { PromptNotice } from './PromptNotice.js';
import { ViewHeader } from './ViewHeader.js';

export function InboxView({ taskId }: { taskId?: string | undefined }) {
  const inbox = useApp((s) => s.inbox);
  const { loadInbox, loadMoreInbox, showInboxPrompt, clearInboxPrompt } = useActions();
  const listRef = useRef<HTMLUListElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const count = inbox.items.length;
  const total = inbox.total;

  useEffect(() => {
    if (taskId === undefined) return;
    void showInboxPrompt(taskId);
    return () => clearInboxPrompt();
  }, [taskId, showInboxPrompt, clearInboxPrompt]);

  const target = taskId !== undefined && inbox.target?.taskId === taskId ? inbox.target : undefined;
  useBringIntoView(target, listRef, noticeRef, inbox.items);
  const targetId = target?.status === 'waiting' ? target.taskId : undefined;

  return (
    <div className="view view-inbox">
      <ViewHeader title="Inbox" subtitle={inbox.status === 'ready' ? (total === 0 ? 'Nothing waiting' : `${plural(total, 'task')} waiting for your answer`) : undefined} />
      <div className="view-body view-scroll">
        {target?.status === 'loading' && (
          <p className="prompt-finding" role="status">
            <span className="spinner" aria-hidden="true" /> Opening the prompt of task {shortId(target.taskId)}…
          </p>
        )}
        {target && <PromptNotice ref={noticeRef} target={target} onRetry={() => void showInboxPrompt(target.taskId)} />}
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
            <ul className="inbox-list" aria-label="Waiting for an answer" ref={listRef}>
              {inbox.items.map((item, i) => (
                <InboxCard
                  key={item.task.task_id}
                  item={item}
                  failure={inbox.failures[item.task.task_id]}
                  // With a prompt asked for, focus is its card's; no other card takes it.
                  autoFocus={i === 0 && taskId === undefined}
                  targeted={item.task.task_id === targetId}
                />
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

/**
 * Once per request for a prompt: scrolls its card to the top of the view and focuses the first
 * field of its answer form (or focuses the notice saying it no longer waits). Waits while the card
 * is not drawn yet (the list still loading). When the same request turns live from card to notice
 * (answered elsewhere while open) or back (the task asks again), the new one takes the focus only
 * if it went away with the old one: focus elsewhere is left where the person put it.
 */
function useBringIntoView(
  target: InboxTarget | undefined,
  listRef: RefObject<HTMLUListElement | null>,
  noticeRef: RefObject<HTMLDivElement | null>,
  items: readonly InboxItem[],
): void {
  const handled = useRef<{ request: number; shown: 'card' | 'notice' } | undefined>(undefined);
  useEffect(() => {
    if (!target || target.status === 'loading' || target.status === 'answered') return;
    const shown = target.status === 'waiting' ? 'card' : 'notice';
    const last = handled.current;
    if (last?.request === target.request && last.shown === shown) return;
    const element =
      shown === 'card' ? listRef.current?.querySelector<HTMLElement>(`[data-task-id="${CSS.escape(target.taskId)}"]`) : noticeRef.current;
    if (!element) return;
    handled.current = { request: target.request, shown };
    if (last?.request === target.request && !focusLost()) return;
    scrollToTop(element);
    const focusTarget = shown === 'card' ? firstAnswerField(element) : element;
    focusTarget?.focus({ preventScroll: true });
  }, [target, listRef, noticeRef, items]);
}

/** Nothing has the focus any more (what was focused was removed from the page). */
function focusLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body;
}

/** Room left above the element brought to the top, so it does not touch the view's header. */
const SCROLL_MARGIN = 16;

/**
 * Scrolls the view's own scroller so `el` sits at its top. Not scrollIntoView: that also scrolls
 * the app frame (overflow: hidden, but scrollable by script) and would push the nav and header away.
 */
function scrollToTop(el: HTMLElement): void {
  const scroller = el.closest<HTMLElement>('.view-scroll');
  if (!scroller) return;
  scroller.scrollTop += el.getBoundingClientRect().top - scroller.getBoundingClientRect().top - SCROLL_MARGIN;
}

const FIELD = 'input:not([type="hidden"]):not(:disabled), textarea:not(:disabled), select:not(:disabled)';

function firstAnswerField(card: HTMLElement): HTMLElement | null {
  const form = card.querySelector('form');
  return form?.querySelector<HTMLElement>(FIELD) ?? form?.querySelector<HTMLElement>('button[type="submit"]') ?? null;
}

function InboxCard({ item, failure, autoFocus, targeted }: { item: InboxItem; failure: AnswerFailure | undefined; autoFocus: boolean; targeted: boolean }) {
  const { task } = item;
  const headingId = `inbox-${task.task_id}`;
  return (
    <li className={`card inbox-card${targeted ? ' is-target' : ''}`} aria-labelledby={headingId} aria-current={targeted ? 'true' : undefined} data-task-id={task.task_id}>
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
      <AnswerForm task={task} failure={failure} autoFocus={autoFocus} />
    </li>
  );
}
