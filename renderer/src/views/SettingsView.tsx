/**
 * Host settings: intake (pause or resume new tasks), starting at login (desktop window only),
 * where the A2A server listens, who may call it, how long tasks are kept, the API tokens
 * orchestrators use, and the data folder.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { SettingsInfo, SettingsPatch } from '../../../main/shared/control-api.js';
import { errorMessage, isApiError } from '../api/http.js';
import { CopyButton } from '../components/CopyButton.js';
import { FieldError } from '../components/FieldError.js';
import { Icon } from '../components/Icon.js';
import { ErrorState, SkeletonRows } from '../components/States.js';
import { Toggle } from '../components/Toggle.js';
import { errorsFromDetails } from '../lib/schema-form.js';
import { useActions, useApp } from '../store/react.js';
import { DesktopSection } from './DesktopSection.js';
import { IntakeSection } from './IntakeSection.js';
import { ListEditor } from './ListEditor.js';
import { TokensSection } from './TokensSection.js';
import { ViewHeader } from './ViewHeader.js';

export function SettingsView() {
  const settings = useApp((s) => s.settings);
  const { loadSettings } = useActions();
  useEffect(() => {
    if (settings.status === 'idle') void loadSettings();
  }, [settings.status, loadSettings]);
  return (
    <div className="view view-settings">
      <ViewHeader title="Settings" subtitle="Saved to config.json in the data folder" />
      <div className="view-body view-scroll">
        <div className="settings-page">
          <IntakeSection />
          <DesktopSection />
          {settings.status === 'error' && !settings.data ? (
            <ErrorState title="Could not load the settings" message={settings.error ?? ''} onRetry={() => void loadSettings()} />
          ) : !settings.data ? (
            <SkeletonRows rows={5} label="Loading settings" />
          ) : (
            <>
              {settings.data.restart_required && (
                <div className="callout callout-attention" role="status">
                  <div className="callout-title">
                    <Icon name="power" size={16} /> Restart Agent Host to apply the new address
                  </div>
                  <p className="callout-text">The bind address or port changed; the server keeps listening where it is until the next start.</p>
                </div>
              )}
              <ServerForm key={JSON.stringify(settings.data)} data={settings.data} />
            </>
          )}
          <TokensSection />
          {settings.data && <DataFolder path={settings.data.data_dir} />}
        </div>
      </div>
    </div>
  );
}

function ServerForm({ data }: { data: SettingsInfo }) {
  const { saveSettings, toast } = useActions();
  const id = useId();
  const [host, setHost] = useState(data.server.host);
  const [port, setPort] = useState(String(data.server.port));
  const [requireToken, setRequireToken] = useState(data.server.require_token);
  const [hosts, setHosts] = useState(data.server.allowed_hosts);
  const [origins, setOrigins] = useState(data.server.allowed_origins);
  const [retention, setRetention] = useState(String(data.retention_days));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const loopback = ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host.trim());

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const found: Record<string, string> = {};
    const portNumber = Number(port.trim());
    if (!host.trim()) found.host = 'Enter an address, e.g. 127.0.0.1';
    if (!Number.isInteger(portNumber) || portNumber < 0 || portNumber > 65535) found.port = 'Enter a port from 0 to 65535 (0 picks a free one)';
    const days = Number(retention.trim());
    if (!Number.isInteger(days) || days < 0) found.retention = 'Enter a whole number of days (0 keeps everything)';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const patch: SettingsPatch = {
      server: { host: host.trim(), port: portNumber, require_token: requireToken, allowed_hosts: hosts, allowed_origins: origins },
      retention_days: days,
    };
    setBusy(true);
    setFormError(undefined);
    try {
      const saved = await saveSettings(patch);
      toast('success', saved.restart_required ? 'Saved. Restart Agent Host to apply the new address.' : 'Settings saved.');
    } catch (err) {
      setFormError(errorMessage(err));
      if (isApiError(err)) setErrors(serverFieldErrors(err.details));
    } finally {
      setBusy(false);
    }
  };

  const fieldProps = (key: string): { 'aria-invalid'?: true; 'aria-describedby'?: string } =>
    errors[key] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${key}-err` } : {};

  return (
    <form className="card settings-card" onSubmit={(e) => void submit(e)} noValidate aria-labelledby={`${id}-title`}>
      <h2 className="card-title" id={`${id}-title`}>
        A2A server
      </h2>
      <p className="card-lead">Where orchestrators reach your agents.</p>
      <div className="field-row">
        <div className="field">
          <label className="field-label" htmlFor={`${id}-host`}>
            Bind address
          </label>
          <input id={`${id}-host`} className="input input-mono" value={host} onChange={(e) => setHost(e.target.value)} spellCheck={false} {...fieldProps('host')} />
          <FieldError id={`${id}-host-err`} message={errors.host} />
        </div>
        <div className="field field-narrow">
          <label className="field-label" htmlFor={`${id}-port`}>
            Port
          </label>
          <input id={`${id}-port`} className="input input-mono" inputMode="numeric" value={port} onChange={(e) => setPort(e.target.value)} {...fieldProps('port')} />
          <FieldError id={`${id}-port-err`} message={errors.port} />
        </div>
      </div>
      <p className="field-desc">
        <Icon name="info" size={12} /> Address and port take effect after a restart.
        {!loopback && ' Beyond this machine, bearer tokens are always required.'}
      </p>
      <div className="field field-switch">
        <div>
          <span className="field-label" id={`${id}-req`}>
            Require a token
          </span>
          <p className="field-desc">Every request must carry Authorization: Bearer with one of the API tokens below.</p>
        </div>
        <Toggle checked={requireToken || !loopback} onChange={setRequireToken} label="Require a token" disabled={!loopback} />
      </div>
      <ListEditor label="Allowed host names" description="Extra Host header names to accept (names you reach this machine by). Others are refused to stop DNS rebinding." placeholder="myhost.local" items={hosts} onChange={setHosts} validate={validateHostName} />
      <ListEditor label="Allowed origins" description="Browser origins allowed to call the API (CORS names only these)." placeholder="https://orchestrator.example" items={origins} onChange={setOrigins} validate={validateOrigin} />
      <div className="field">
        <label className="field-label" htmlFor={`${id}-retention`}>
          Keep finished tasks for
        </label>
        <div className="input-suffix">
          <input id={`${id}-retention`} className="input input-number" inputMode="numeric" value={retention} onChange={(e) => setRetention(e.target.value)} {...fieldProps('retention')} />
          <span>days</span>
        </div>
        <p className="field-desc">Finished tasks and their artifacts older than this are deleted. 0 keeps everything.</p>
        <FieldError id={`${id}-retention-err`} message={errors.retention} />
      </div>
      {formError && (
        <div className="form-error" role="alert">
          <Icon name="alert" size={14} /> <span>{formError}</span>
        </div>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save settings'}
        </button>
      </div>
    </form>
  );
}

/** Maps server validation paths (server.port, retention_days) onto this form's fields. */
function serverFieldErrors(details: readonly unknown[]): Record<string, string> {
  const mapped = errorsFromDetails(details);
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(mapped)) {
    if (path === 'server.host') out.host = message;
    else if (path === 'server.port') out.port = message;
    else if (path === 'retention_days') out.retention = message;
  }
  return out;
}

function validateHostName(value: string): string | undefined {
  return /^[A-Za-z0-9.-]+$|^\[[0-9a-fA-F:]+\]$/.test(value) ? undefined : 'A host name, e.g. myhost.local (no scheme, no port)';
}

function validateOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value.replace(/\/$/, '')) return undefined;
  } catch {
    // Falls through to the message.
  }
  return 'An origin: scheme, host and optional port, e.g. https://example.com:8443';
}

function DataFolder({ path }: { path: string }) {
  return (
    <section className="card settings-card" aria-labelledby="data-folder-title">
      <h2 className="card-title" id="data-folder-title">
        Data folder
      </h2>
      <p className="card-lead">Tasks (agent-host.db), artifacts, plugins and config.json live here. Start with --data-dir to use another one.</p>
      <div className="path-box">
        <Icon name="folder" size={16} />
        <span className="mono">{path}</span>
        <CopyButton value={path} label="Copy path" />
      </div>
    </section>
  );
}
