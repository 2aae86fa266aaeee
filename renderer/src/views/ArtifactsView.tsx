/**
 * Every artifact, newest first, filterable by agent and task, with a preview of the chosen one.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ArtifactListItem } from '../../../main/shared/control-api.js';
import { ArtifactPreview, artifactIcon } from '../components/ArtifactPreview.js';
import { CopyButton } from '../components/CopyButton.js';
import { Icon } from '../components/Icon.js';
import { RelativeTime } from '../components/RelativeTime.js';
import { EmptyState, ErrorState, SkeletonRows } from '../components/States.js';
import { StatusChip } from '../components/StatusChip.js';
import { VirtualList, type VirtualListControl } from '../components/VirtualList.js';
import { useDebounced } from '../hooks/useDebounced.js';
import { useHotkeys } from '../hooks/useHotkeys.js';
import { navigate } from '../hooks/useRoute.js';
import { artifactTitle } from '../lib/artifacts.js';
import { formatBytes, formatTimestamp, shortId } from '../lib/format.js';
import { taskHref } from '../lib/route.js';
import { useActions, useApp, useAppStore } from '../store/react.js';
import { ViewHeader } from './ViewHeader.js';

const ROW_HEIGHT = 56;

export function ArtifactsView({ artifactId }: { artifactId?: string | undefined }) {
  const state = useApp((s) => s.artifacts);
  const { loadArtifacts, loadMoreArtifacts, selectArtifact, watchArtifacts } = useActions();
  const listRef = useRef<HTMLDivElement>(null);
  const control = useRef<VirtualListControl>(null);

  useEffect(() => {
    if (state.status === 'idle') void loadArtifacts();
  }, [state.status, loadArtifacts]);
  useEffect(() => {
    watchArtifacts(true);
    return () => watchArtifacts(false);
  }, [watchArtifacts]);
  useEffect(() => {
    if (artifactId) selectArtifact(artifactId);
  }, [artifactId, selectArtifact]);

  const open = useCallback((item: ArtifactListItem) => navigate({ view: 'artifacts', artifactId: item.artifact.artifact_id }, { replace: true }), []);
  useHotkeys({
    Escape: () => {
      if (!artifactId) return;
      navigate({ view: 'artifacts' }, { replace: true });
      requestAnimationFrame(() => listRef.current?.focus());
    },
    j: () => control.current?.step(1),
    k: () => control.current?.step(-1),
  });

  const selected = state.items.find((i) => i.artifact.artifact_id === artifactId);
  const filtered = state.filters.agent !== '' || state.filters.task.trim() !== '';

  return (
    <div className={`view view-artifacts${artifactId ? ' has-detail' : ''}`}>
      <ViewHeader title="Artifacts" subtitle={state.status === 'ready' ? `${state.items.length}${state.nextCursor ? '+' : ''} shown, newest first` : undefined}>
        <ArtifactFilters />
      </ViewHeader>
      <div className="split">
        <section className="split-list" aria-label="Artifact list">
          {state.status === 'error' && state.items.length === 0 ? (
            <ErrorState title="Could not load artifacts" message={state.error ?? ''} onRetry={() => void loadArtifacts()} />
          ) : state.status !== 'ready' ? (
            <SkeletonRows rows={8} label="Loading artifacts" />
          ) : state.items.length === 0 ? (
            <EmptyState icon="file" title={filtered ? 'No artifact matches these filters' : 'No artifacts yet'}>
              <p>{filtered ? 'Try another agent or task.' : 'Files, text, JSON, logs and links that agents produce are collected here.'}</p>
            </EmptyState>
          ) : (
            <VirtualList
              items={state.items}
              rowHeight={ROW_HEIGHT}
              getKey={(i) => i.artifact.artifact_id}
              activeKey={state.selectedId}
              onActiveChange={(i) => {
                selectArtifact(i.artifact.artifact_id);
                // The preview follows the cursor once one is open.
                if (artifactId && i.artifact.artifact_id !== artifactId) open(i);
              }}
              onOpen={open}
              openKey={artifactId}
              hasMore={Boolean(state.nextCursor)}
              loadingMore={state.loadingMore}
              onLoadMore={loadMoreArtifacts}
              ariaLabel="Artifacts"
              listRef={listRef}
              controlRef={control}
              renderRow={(item) => <ArtifactRow item={item} />}
            />
          )}
        </section>
        {artifactId && (
          <section className="split-detail" aria-label="Artifact preview">
            {selected ? (
              <ArtifactDetail item={selected} />
            ) : (
              <EmptyState icon="file" title={state.status === 'ready' ? 'Artifact not in this list' : 'Loading…'}>
                <p>It may be older than the artifacts loaded so far, or hidden by the filters.</p>
              </EmptyState>
            )}
          </section>
        )}
      </div>
    </div>
  );
}

function ArtifactRow({ item }: { item: ArtifactListItem }) {
  const { artifact } = item;
  const agentName = useApp((s) => s.agents.list.find((a) => a.slug === item.agent_slug)?.display_name ?? item.agent_slug);
  return (
    <div className="artifact-row">
      <span className="artifact-row-icon">
        <Icon name={artifactIcon(artifact)} size={18} />
      </span>
      <span className="artifact-row-main">
        <span className="artifact-row-title">{artifactTitle(artifact)}</span>
        <span className="artifact-row-sub">
          {agentName} · <span className="mono">{shortId(artifact.task_id)}</span> · {artifact.type}
          {artifact.metadata.size !== undefined && ` · ${formatBytes(artifact.metadata.size)}`}
        </span>
      </span>
      <span className="artifact-row-age">
        <RelativeTime iso={artifact.metadata.created_at} />
      </span>
    </div>
  );
}

function ArtifactDetail({ item }: { item: ArtifactListItem }) {
  const { artifact } = item;
  const agentName = useApp((s) => s.agents.list.find((a) => a.slug === item.agent_slug)?.display_name ?? item.agent_slug);
  return (
    <div className="detail">
      <header className="detail-header">
        <div className="detail-titlebar">
          <Icon name={artifactIcon(artifact)} size={18} />
          <h2 className="detail-title">{artifactTitle(artifact)}</h2>
          <span className="grow" />
          <button
            type="button"
            className="btn btn-ghost btn-icon"
            aria-label="Close the preview (Esc)"
            title="Close (Esc)"
            onClick={() => navigate({ view: 'artifacts' }, { replace: true })}
          >
            <Icon name="x" size={16} />
          </button>
        </div>
        <dl className="kv kv-inline">
          <dt>Task</dt>
          <dd>
            <a href={taskHref(artifact.task_id)} className="mono-link">
              {shortId(artifact.task_id)}
            </a>{' '}
            <StatusChip status={item.task_status} size="sm" />
          </dd>
          <dt>Agent</dt>
          <dd>{agentName}</dd>
          <dt>Type</dt>
          <dd>
            {artifact.type}
            {artifact.metadata.mime_type ? ` · ${artifact.metadata.mime_type}` : ''}
            {artifact.metadata.size !== undefined ? ` · ${formatBytes(artifact.metadata.size)}` : ''}
          </dd>
          <dt>Created</dt>
          <dd title={formatTimestamp(artifact.metadata.created_at)}>
            <RelativeTime iso={artifact.metadata.created_at} />
          </dd>
          {item.path && (
            <>
              <dt>On disk</dt>
              <dd className="kv-path">
                <span className="mono">{item.path}</span>
                <CopyButton value={item.path} label="Copy path" />
              </dd>
            </>
          )}
        </dl>
        {artifact.metadata.description && artifact.metadata.filename && <p className="muted">{artifact.metadata.description}</p>}
      </header>
      <div className="detail-scroll">
        <ArtifactPreview key={artifact.artifact_id} artifact={artifact} hasPath={Boolean(item.path)} />
      </div>
    </div>
  );
}

function ArtifactFilters() {
  const filters = useApp((s) => s.artifacts.filters);
  const agents = useApp((s) => s.agents.list);
  const store = useAppStore();
  const { setArtifactFilters } = useActions();
  const [task, setTask] = useState(filters.task);
  const debounced = useDebounced(task, 300);
  useEffect(() => {
    if (debounced !== store.getState().artifacts.filters.task) setArtifactFilters({ task: debounced });
  }, [debounced, store, setArtifactFilters]);
  return (
    <div className="toolbar">
      <label className="select-filter">
        <span className="btn-filter-label">Agent:</span>
        <select className="input select" value={filters.agent} onChange={(e) => setArtifactFilters({ agent: e.target.value })} aria-label="Filter by agent">
          <option value="">All</option>
          {agents.map((a) => (
            <option key={a.slug} value={a.slug}>
              {a.display_name}
            </option>
          ))}
        </select>
      </label>
      <div className="search">
        <Icon name="filter" size={14} />
        <input
          type="search"
          className="input search-input"
          placeholder="Task id"
          aria-label="Filter by task id"
          value={task}
          spellCheck={false}
          onChange={(e) => setTask(e.target.value)}
        />
      </div>
    </div>
  );
}
