/**
 * The installed agents as cards: what each does, where orchestrators reach it, its settings
 * (enabled, concurrency, webhook) and a "Try it" form that creates a real task. Plugins that
 * failed to load are listed with the reason.
 */
import { useEffect, useRef, useState } from 'react';
import type { AgentInfo, PluginLoadErrorInfo } from '../../../main/shared/control-api.js';
import { CopyButton } from '../components/CopyButton.js';
import { Icon } from '../components/Icon.js';
import { SchemaForm } from '../components/SchemaForm.js';
import { EmptyState, ErrorState, SkeletonRows } from '../components/States.js';
import { Toggle } from '../components/Toggle.js';
import { errorMessage } from '../api/http.js';
import { plural, shortId } from '../lib/format.js';
import { taskHref } from '../lib/route.js';
import { useActions, useApp } from '../store/react.js';
import { AgentSettingsForm } from './AgentSettingsForm.js';
import { ViewHeader } from './ViewHeader.js';

export function AgentsView({ focusSlug }: { focusSlug?: string | undefined }) {
  const agents = useApp((s) => s.agents);
  const { loadAgents, watchAgents } = useActions();
  useEffect(() => {
    if (agents.status === 'idle') void loadAgents();
  }, [agents.status, loadAgents]);
  // Running and queued counts follow task events only while this view is open.
  useEffect(() => {
    watchAgents(true);
    return () => watchAgents(false);
  }, [watchAgents]);
  const enabled = agents.list.filter((a) => a.enabled).length;
  return (
    <div className="view view-agents">
      <ViewHeader
        title="Agents"
        subtitle={agents.status === 'ready' ? `${plural(agents.list.length, 'agent')} installed, ${enabled} enabled` : undefined}
      />
      <div className="view-body view-scroll">
        {agents.status === 'error' && agents.list.length === 0 ? (
          <ErrorState title="Could not load agents" message={agents.error ?? ''} onRetry={() => void loadAgents()} />
        ) : agents.status !== 'ready' ? (
          <SkeletonRows rows={4} label="Loading agents" />
        ) : (
          <>
            {agents.loadErrors.length > 0 && <LoadErrors errors={agents.loadErrors} />}
            {agents.list.length === 0 ? (
              <EmptyState icon="agents" title="No agents installed">
                <p>Put a plugin folder (agent.json and its module) into the data folder’s plugins/ directory and restart Agent Host.</p>
              </EmptyState>
            ) : (
              <ul className="agent-list">
                {agents.list.map((a) => (
                  <AgentCard key={a.slug} agent={a} focused={a.slug === focusSlug} />
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </div>
  );
}

function LoadErrors({ errors }: { errors: PluginLoadErrorInfo[] }) {
  return (
    <section className="callout callout-danger load-errors" aria-labelledby="load-errors-title">
      <h2 className="callout-title" id="load-errors-title">
        <Icon name="alert" size={16} /> {errors.length === 1 ? 'A plugin could not be loaded' : `${errors.length} plugins could not be loaded`}
      </h2>
      <ul className="load-error-list">
        {errors.map((e) => (
          <li key={e.dir}>
            <strong>{e.slug ?? e.dir.split(/[\\/]/).pop()}</strong>
            <span className="mono muted"> {e.dir}</span>
            <p className="callout-text">{e.reason}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

type Panel = 'none' | 'settings' | 'try';

function AgentCard({ agent, focused }: { agent: AgentInfo; focused: boolean }) {
  const [panel, setPanel] = useState<Panel>(focused ? 'try' : 'none');
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (focused) ref.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, [focused]);
  const titleId = `agent-${agent.slug}`;
  return (
    <li ref={ref} className={`card agent-card${agent.enabled ? '' : ' is-disabled'}${focused ? ' is-focused' : ''}`} aria-labelledby={titleId}>
      <div className="agent-head">
        <div className="agent-avatar" aria-hidden="true">
          {agent.display_name.slice(0, 1).toUpperCase()}
        </div>
        <div className="agent-heading">
          <h2 className="agent-name" id={titleId}>
            {agent.display_name}
          </h2>
          <div className="agent-sub">
            <span className="mono">{agent.slug}</span> · v{agent.version} · <span className="badge-soft">{SOURCE_LABEL[agent.source]}</span>
            {agent.rerun_safe && (
              <span className="badge-soft" title="Can be re-run from the start to resume after a restart">
                resumable
              </span>
            )}
          </div>
        </div>
        <span className="grow" />
        <EnabledSwitch agent={agent} />
      </div>
      <p className="agent-desc">{agent.description}</p>
      {agent.card.capabilities.length > 0 && (
        <ul className="caps" aria-label="Capabilities">
          {agent.card.capabilities.map((c) => (
            <li key={c} className="cap">
              {c}
            </li>
          ))}
        </ul>
      )}
      <div className="agent-stats">
        <Stat label="Running" value={agent.running} />
        <Stat label="Queued" value={agent.queued} />
        <Stat label="At once" value={agent.concurrency} hint={agent.concurrency !== agent.manifest_concurrency ? `manifest: ${agent.manifest_concurrency}` : undefined} />
        <Stat label="Webhook" value={agent.notification_config ? 'On' : 'Off'} />
      </div>
      <dl className="agent-urls">
        <UrlRow label="Base URL" url={agent.base_url} />
        <UrlRow label="Agent card" url={agent.card_url} />
      </dl>
      <div className="agent-actions" role="group" aria-label={`${agent.display_name} actions`}>
        <button type="button" className={`btn btn-sm${panel === 'try' ? ' is-active' : ''}`} aria-expanded={panel === 'try'} onClick={() => setPanel(panel === 'try' ? 'none' : 'try')}>
          <Icon name="play" size={14} /> Try it
        </button>
        <button
          type="button"
          className={`btn btn-sm${panel === 'settings' ? ' is-active' : ''}`}
          aria-expanded={panel === 'settings'}
          onClick={() => setPanel(panel === 'settings' ? 'none' : 'settings')}
        >
          <Icon name="settings" size={14} /> Settings
        </button>
      </div>
      {panel === 'try' && <TryIt agent={agent} />}
      {panel === 'settings' && <AgentSettingsForm agent={agent} />}
    </li>
  );
}

const SOURCE_LABEL = { builtin: 'built-in', 'data-dir': 'plugin', cli: '--plugins' } as const;

function Stat({ label, value, hint }: { label: string; value: number | string; hint?: string | undefined }) {
  return (
    <div className="stat">
      <span className="stat-value">{value}</span>
      <span className="stat-label">
        {label}
        {hint && <span className="muted"> ({hint})</span>}
      </span>
    </div>
  );
}

function UrlRow({ label, url }: { label: string; url: string }) {
  return (
    <div className="url-row">
      <dt>{label}</dt>
      <dd>
        <span className="mono url-text" title={url}>
          {url}
        </span>
        <CopyButton value={url} label={`Copy ${label.toLowerCase()}`} />
      </dd>
    </div>
  );
}

function EnabledSwitch({ agent }: { agent: AgentInfo }) {
  const { patchAgent, toast } = useActions();
  const [pending, setPending] = useState<boolean | undefined>();
  const checked = pending ?? agent.enabled;
  const change = (enabled: boolean): void => {
    setPending(enabled);
    patchAgent(agent.slug, { enabled })
      .then(() => toast('success', `${agent.display_name} ${enabled ? 'enabled' : 'disabled'}.`))
      .catch((err: unknown) => toast('error', `Could not ${enabled ? 'enable' : 'disable'} ${agent.display_name}: ${errorMessage(err)}`))
      .finally(() => setPending(undefined));
  };
  return (
    <label className="switch-label">
      <span className="muted">{checked ? 'Enabled' : 'Disabled'}</span>
      <Toggle checked={checked} onChange={change} label={`${agent.display_name} enabled`} disabled={pending !== undefined} />
    </label>
  );
}

function TryIt({ agent }: { agent: AgentInfo }) {
  const { createTask, toast, watchTask } = useActions();
  const [created, setCreated] = useState<string[]>([]);
  if (!agent.enabled) {
    return (
      <div className="panel">
        <p className="muted">This agent is disabled: enable it to create tasks.</p>
      </div>
    );
  }
  return (
    <div className="panel" aria-label={`Try ${agent.display_name}`} role="region">
      <p className="panel-lead">Creates a real task, exactly as an orchestrator would.</p>
      <SchemaForm
        schema={agent.card.input_schema}
        submitLabel="Create task"
        submitIcon="play"
        onSubmit={async (input) => {
          const task = await createTask(agent.slug, input);
          setCreated((c) => [task.task_id, ...c].slice(0, 5));
          toast('success', `Task ${shortId(task.task_id)} created.`, { href: taskHref(task.task_id), text: 'Open it' });
          // The person started it here, so they hear how it goes, even from another window (after
          // the toast above: a task that is already done says so second, not before "created").
          watchTask(task, agent.slug);
        }}
      />
      {created.length > 0 && (
        <div className="created" role="status">
          <span className="muted">Created:</span>
          {created.map((id) => (
            <a key={id} className="mono-link" href={taskHref(id)}>
              {shortId(id)} <Icon name="chevronRight" size={12} />
            </a>
          ))}
        </div>
      )}
    </div>
  );
}
