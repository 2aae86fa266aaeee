/**
 * Every task, newest first: a virtualized list with status/agent filters and search, and the
 * open task's detail beside it. Changes arrive live through the store; the list keeps its place.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TaskSummary } from '../../../main/shared/control-api.js';
import { TASK_STATUSES, type TaskStatus } from '../../../main/shared/protocol.js';
import { Icon } from '../components/Icon.js';
import { MultiSelect, type Option } from '../components/MultiSelect.js';
import { RelativeTime } from '../components/RelativeTime.js';
import { EmptyState, ErrorState, SkeletonRows } from '../components/States.js';
import { STATUS_LABEL, StatusChip } from '../components/StatusChip.js';
import { VirtualList, type VirtualListControl } from '../components/VirtualList.js';
import { useDebounced } from '../hooks/useDebounced.js';
import { useHotkeys } from '../hooks/useHotkeys.js';
import { navigate } from '../hooks/useRoute.js';
import { formatCount, plural, shortId } from '../lib/format.js';
import { useActions, useApp, useAppStore } from '../store/react.js';
import { TaskDetailPane } from './TaskDetail.js';
import { ViewHeader } from './ViewHeader.js';

const ROW_HEIGHT = 48;
const STATUS_OPTIONS: Option<TaskStatus>[] = TASK_STATUSES.map((s) => ({
  value: s,
  label: STATUS_LABEL[s],
  adornment: <span className={`dot dot-${s.toLowerCase()}`} aria-hidden="true" />,
}));

export function TasksView({ taskId }: { taskId?: string | undefined }) {
  const tasks = useApp((s) => s.tasks);
  const { loadTasks, loadMoreTasks, setTaskFilters, selectTaskRow } = useActions();
  const listRef = useRef<HTMLDivElement>(null);
  const control = useRef<VirtualListControl>(null);

  useEffect(() => {
    if (tasks.status === 'idle') void loadTasks();
  }, [tasks.status, loadTasks]);

  const open = useCallback((row: TaskSummary) => navigate({ view: 'tasks', taskId: row.task_id }), []);
  const close = useCallback(() => {
    navigate({ view: 'tasks' });
    // Back to the list, on the row that was open, so j/k continue from there.
    requestAnimationFrame(() => listRef.current?.focus());
  }, []);

  useHotkeys({
    Escape: () => {
      if (taskId) close();
    },
    '/': () => document.getElementById('task-search')?.focus(),
    j: () => control.current?.step(1),
    k: () => control.current?.step(-1),
  });

  // With a task open, moving the cursor opens the next one (reading tasks one after another).
  const onActiveChange = useCallback(
    (row: TaskSummary) => {
      selectTaskRow(row.task_id);
      if (taskId && row.task_id !== taskId) navigate({ view: 'tasks', taskId: row.task_id }, { replace: true });
    },
    [taskId, selectTaskRow],
  );

  // The open task is the keyboard cursor's row too, so closing the detail leaves you where you were.
  useEffect(() => {
    if (taskId) selectTaskRow(taskId);
  }, [taskId, selectTaskRow]);

  const filtered = tasks.filters.status.length > 0 || tasks.filters.agent.length > 0 || tasks.filters.q.trim() !== '';

  return (
    <div className={`view view-tasks${taskId ? ' has-detail' : ''}`}>
      <ViewHeader
        title="Tasks"
        subtitle={
          tasks.status === 'ready' ? (filtered ? `${plural(tasks.total, 'task')} match` : plural(tasks.total, 'task')) : undefined
        }
      >
        <TaskFilters />
      </ViewHeader>
      <div className="split">
        <section className="split-list" aria-label="Task list">
          {tasks.status === 'error' && tasks.rows.length === 0 ? (
            <ErrorState title="Could not load tasks" message={tasks.error ?? ''} onRetry={() => void loadTasks()} />
          ) : tasks.status !== 'ready' ? (
            <SkeletonRows rows={10} label="Loading tasks" />
          ) : tasks.rows.length === 0 ? (
            filtered ? (
              <EmptyState icon="search" title="No task matches these filters">
                <button type="button" className="btn btn-sm" onClick={() => setTaskFilters({ status: [], agent: [], q: '' })}>
                  Clear filters
                </button>
              </EmptyState>
            ) : (
              <EmptyState icon="tasks" title="No tasks yet">
                <p>Tasks appear here the moment an orchestrator sends one to an agent. Try one yourself from an agent’s card.</p>
                <a className="btn btn-sm" href="#/agents">
                  <Icon name="play" size={14} /> Try an agent
                </a>
              </EmptyState>
            )
          ) : (
            <>
              <div className="list-head" aria-hidden="true">
                <span className="col-status">Status</span>
                <span className="col-agent">Agent</span>
                <span className="col-input">Input</span>
                <span className="col-id">Task</span>
                <span className="col-age">Created</span>
              </div>
              <VirtualList
                items={tasks.rows}
                rowHeight={ROW_HEIGHT}
                getKey={(r) => r.task_id}
                activeKey={tasks.selectedId}
                onActiveChange={onActiveChange}
                onOpen={open}
                openKey={taskId}
                hasMore={Boolean(tasks.nextCursor)}
                loadingMore={tasks.loadingMore}
                moreError={tasks.moreError}
                onLoadMore={loadMoreTasks}
                ariaLabel={`Tasks, ${formatCount(tasks.total)} in all`}
                listRef={listRef}
                controlRef={control}
                renderRow={(row) => <TaskRow row={row} />}
              />
            </>
          )}
        </section>
        {taskId && <TaskDetailPane taskId={taskId} onClose={close} />}
      </div>
    </div>
  );
}

function TaskRow({ row }: { row: TaskSummary }) {
  const name = useApp((s) => s.agents.list.find((a) => a.slug === row.agent_slug)?.display_name ?? row.agent_slug);
  return (
    <div className="task-row">
      <span className="col-status">
        <StatusChip status={row.status} size="sm" />
      </span>
      <span className="col-agent" title={row.agent_slug}>
        {name}
      </span>
      <span className="col-input" title={row.prompt ?? row.input_preview}>
        {row.status === 'INPUT_REQUIRED' && row.prompt ? (
          <>
            <Icon name="message" size={12} className="row-prompt-icon" /> {row.prompt}
          </>
        ) : row.error_code ? (
          <>
            <span className="row-error">{row.error_code}</span> {row.input_preview}
          </>
        ) : (
          row.input_preview
        )}
      </span>
      <span className="col-id mono">{shortId(row.task_id)}</span>
      <span className="col-age">
        <RelativeTime iso={row.created_at} />
      </span>
    </div>
  );
}

function TaskFilters() {
  const filters = useApp((s) => s.tasks.filters);
  const agents = useApp((s) => s.agents.list);
  const store = useAppStore();
  const { setTaskFilters } = useActions();
  const [q, setQ] = useState(filters.q);
  const debounced = useDebounced(q, 250);
  // Only a settled change of the box searches; compared with the store's value at that moment, so
  // "Clear" (which sets both) is not undone by the old text settling a moment later.
  useEffect(() => {
    if (debounced !== store.getState().tasks.filters.q) setTaskFilters({ q: debounced });
  }, [debounced, store, setTaskFilters]);
  const agentOptions: Option<string>[] = agents.map((a) => ({ value: a.slug, label: a.display_name }));
  // Tasks of agents no longer loaded can still be filtered by what is already chosen.
  for (const slug of filters.agent) if (!agents.some((a) => a.slug === slug)) agentOptions.push({ value: slug, label: slug });
  const any = filters.status.length > 0 || filters.agent.length > 0 || filters.q !== '';
  return (
    <div className="toolbar" role="search">
      <div className="search">
        <Icon name="search" size={14} />
        <input
          id="task-search"
          type="search"
          className="input search-input"
          placeholder="Search id, input, prompt, error…"
          aria-label="Search tasks"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && q) {
              e.stopPropagation();
              setQ('');
            }
          }}
        />
        <kbd className="search-kbd" aria-hidden="true">
          /
        </kbd>
      </div>
      <MultiSelect label="Status" options={STATUS_OPTIONS} selected={filters.status} onChange={(status) => setTaskFilters({ status })} />
      <MultiSelect label="Agent" options={agentOptions} selected={filters.agent} onChange={(agent) => setTaskFilters({ agent })} />
      {any && (
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={() => {
            setQ('');
            setTaskFilters({ status: [], agent: [], q: '' });
          }}
        >
          <Icon name="x" size={14} /> Clear
        </button>
      )}
    </div>
  );
}
