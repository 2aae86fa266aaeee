/**
 * One task: header (status, agent, times, cancel), and tabs for the overview (prompt and answer
 * form, error, timeline, input and output), logs, artifacts and webhook deliveries. Live events
 * update it through the store while it is open.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { TaskDetail } from '../../../main/shared/control-api.js';
import { isTerminal } from '../../../main/shared/task-states.js';
import { AnswerForm } from '../components/AnswerForm.js';
import { CopyButton } from '../components/CopyButton.js';
import { Icon } from '../components/Icon.js';
import { ConfirmDialog } from '../components/Modal.js';
import { RelativeTime } from '../components/RelativeTime.js';
import { EmptyState, ErrorState, Spinner } from '../components/States.js';
import { StatusChip } from '../components/StatusChip.js';
import { formatTimestamp, shortId } from '../lib/format.js';
import { useActions, useApp } from '../store/react.js';
import { ArtifactsSection } from './task/ArtifactsSection.js';
import { DeliveriesSection } from './task/DeliveriesSection.js';
import { LogsSection } from './task/LogsSection.js';
import { OverviewSection } from './task/OverviewSection.js';

type Tab = 'overview' | 'logs' | 'artifacts' | 'webhooks';

export function TaskDetailPane({ taskId, onClose }: { taskId: string; onClose: () => void }) {
  const detail = useApp((s) => s.detail);
  const { openTask, closeTask, reloadDetail } = useActions();

  useEffect(() => {
    openTask(taskId);
  }, [taskId, openTask]);
  useEffect(() => () => closeTask(), [closeTask]);

  return (
    <section className="split-detail" aria-label="Task detail">
      {detail.status === 'error' && detail.taskId === taskId ? (
        <div className="detail-state">
          <DetailClose onClose={onClose} />
          {detail.notFound ? (
            <EmptyState icon="search" title="No such task">
              <p>It may have been deleted by the retention policy, or the link is wrong.</p>
            </EmptyState>
          ) : (
            <ErrorState title="Could not load the task" message={detail.error ?? ''} onRetry={() => void reloadDetail()} />
          )}
        </div>
      ) : !detail.data || detail.data.task.task_id !== taskId ? (
        <div className="detail-state">
          <DetailClose onClose={onClose} />
          <div className="detail-loading">
            <Spinner label="Loading the task" />
          </div>
        </div>
      ) : (
        <DetailBody key={taskId} data={detail.data} onClose={onClose} />
      )}
    </section>
  );
}

function DetailClose({ onClose }: { onClose: () => void }) {
  return (
    <button type="button" className="btn btn-ghost btn-icon detail-close" onClick={onClose} aria-label="Close the task (Esc)" title="Close (Esc)">
      <Icon name="x" size={16} />
    </button>
  );
}

function DetailBody({ data, onClose }: { data: TaskDetail; onClose: () => void }) {
  const { task } = data;
  const agentName = useApp((s) => s.agents.list.find((a) => a.slug === data.agent_slug)?.display_name ?? data.agent_slug);
  const failure = useApp((s) => s.inbox.failures[task.task_id]);
  const [tab, setTab] = useState<Tab>('overview');
  const logCount = data.events.filter((e) => e.kind === 'log').length;
  const tabs: { id: Tab; label: string; count?: number | undefined }[] = [
    { id: 'overview', label: 'Overview' },
    { id: 'logs', label: 'Logs', count: logCount },
    { id: 'artifacts', label: 'Artifacts', count: data.artifacts.length },
    { id: 'webhooks', label: 'Webhooks', count: data.deliveries.length },
  ];

  return (
    <div className="detail">
      <header className="detail-header">
        <div className="detail-titlebar">
          <StatusChip status={task.status} />
          <h2 className="detail-title">
            {agentName} <span className="detail-id mono">{shortId(task.task_id)}</span>
          </h2>
          <CopyButton value={task.task_id} label="Copy task id" />
          <span className="grow" />
          {!isTerminal(task.status) && <CancelButton taskId={task.task_id} />}
          <DetailClose onClose={onClose} />
        </div>
        <p className="detail-meta">
          Created <RelativeTime iso={task.created_at} /> · updated <RelativeTime iso={task.updated_at} />
          <span className="muted" title={task.task_id}>
            {' '}
            · {formatTimestamp(task.created_at)}
          </span>
        </p>
      </header>
      {task.status === 'INPUT_REQUIRED' && (
        <div className="callout callout-attention" role="region" aria-label="Waiting for your answer">
          <div className="callout-title">
            <Icon name="message" size={16} /> Waiting for your answer
          </div>
          <p className="callout-prompt">{task.prompt}</p>
          <AnswerForm task={task} failure={failure} />
        </div>
      )}
      <Tabs tabs={tabs} current={tab} onChange={setTab} />
      <div className="detail-scroll" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} tabIndex={tab === 'logs' ? -1 : 0}>
        {tab === 'overview' && <OverviewSection data={data} />}
        {tab === 'logs' && <LogsSection data={data} />}
        {tab === 'artifacts' && <ArtifactsSection data={data} />}
        {tab === 'webhooks' && <DeliveriesSection data={data} />}
      </div>
    </div>
  );
}

/** ARIA tabs: arrow keys move between them, Home/End jump. */
function Tabs({ tabs, current, onChange }: { tabs: { id: Tab; label: string; count?: number | undefined }[]; current: Tab; onChange: (t: Tab) => void }) {
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const id = useId();
  const onKeyDown = (e: KeyboardEvent): void => {
    const index = tabs.findIndex((t) => t.id === current);
    const next =
      e.key === 'ArrowRight' ? (index + 1) % tabs.length : e.key === 'ArrowLeft' ? (index - 1 + tabs.length) % tabs.length : e.key === 'Home' ? 0 : e.key === 'End' ? tabs.length - 1 : -1;
    if (next < 0) return;
    e.preventDefault();
    const t = tabs[next]!;
    onChange(t.id);
    refs.current[t.id]?.focus();
  };
  return (
    <div className="tabs" role="tablist" aria-label="Task sections" onKeyDown={onKeyDown} id={id}>
      {tabs.map((t) => (
        <button
          key={t.id}
          ref={(el) => {
            refs.current[t.id] = el;
          }}
          type="button"
          role="tab"
          id={`tab-${t.id}`}
          aria-selected={current === t.id}
          aria-controls={`panel-${t.id}`}
          tabIndex={current === t.id ? 0 : -1}
          className={`tab${current === t.id ? ' is-current' : ''}`}
          onClick={() => onChange(t.id)}
        >
          {t.label}
          {t.count !== undefined && t.count > 0 && <span className="tab-count">{t.count}</span>}
        </button>
      ))}
    </div>
  );
}

function CancelButton({ taskId }: { taskId: string }) {
  const [confirming, setConfirming] = useState(false);
  const busy = useApp((s) => s.detail.cancelling);
  const { cancelTask } = useActions();
  return (
    <>
      <button type="button" className="btn btn-sm btn-danger-ghost" onClick={() => setConfirming(true)}>
        <Icon name="stop" size={14} /> Cancel task
      </button>
      <ConfirmDialog
        open={confirming}
        title="Cancel this task?"
        confirmLabel="Cancel task"
        danger
        busy={busy}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          void cancelTask(taskId).then(() => setConfirming(false));
        }}
      >
        <p>The agent is told to stop at once and the orchestrator sees the task as cancelled. This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}
