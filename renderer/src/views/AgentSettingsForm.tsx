/**
 * An agent's settings: how many tasks run at once, and its webhook (endpoint, auth header,
 * signing secret). Saved to config.json by the host and applied at once.
 */
import { useId, useState, type FormEvent } from 'react';
import type { AgentInfo, AgentSettingsPatch } from '../../../main/shared/control-api.js';
import { errorMessage } from '../api/http.js';
import { FieldError } from '../components/FieldError.js';
import { Icon } from '../components/Icon.js';
import { useActions } from '../store/react.js';

const MIN_CONCURRENCY = 1;
const MAX_CONCURRENCY = 64;

export function AgentSettingsForm({ agent }: { agent: AgentInfo }) {
  const { patchAgent, toast } = useActions();
  const id = useId();
  const [concurrency, setConcurrency] = useState(String(agent.concurrency));
  const [endpoint, setEndpoint] = useState(agent.notification_config?.endpoint_url ?? '');
  const [authHeader, setAuthHeader] = useState(agent.notification_config?.auth_header ?? '');
  const [secret, setSecret] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const validate = (): { patch: AgentSettingsPatch } | { errors: Record<string, string> } => {
    const found: Record<string, string> = {};
    const n = Number(concurrency.trim());
    if (!Number.isInteger(n) || n < MIN_CONCURRENCY || n > MAX_CONCURRENCY) found.concurrency = `Enter a whole number from ${MIN_CONCURRENCY} to ${MAX_CONCURRENCY}`;
    const url = endpoint.trim();
    if (url && !/^https?:\/\/[^\s]+$/i.test(url)) found.endpoint = 'Enter an http:// or https:// URL';
    if (!url && (authHeader.trim() || secret.trim())) found.endpoint = 'A webhook needs an endpoint URL';
    if (authHeader.trim() && !/^[A-Za-z0-9-]+:\s*\S/.test(authHeader.trim())) found.auth = 'Write it as Name: value, e.g. Authorization: Bearer …';
    if (secret.trim() && !/^whsec_[A-Za-z0-9+/=]+$/.test(secret.trim())) found.secret = 'Signing secrets look like whsec_ followed by base64';
    if (Object.keys(found).length > 0) return { errors: found };
    const patch: AgentSettingsPatch = {};
    if (n !== agent.concurrency) patch.concurrency = n;
    const original = agent.notification_config;
    const webhookChanged = url !== (original?.endpoint_url ?? '') || authHeader.trim() !== (original?.auth_header ?? '') || secret.trim() !== '';
    // Untouched webhook fields are left out, so saving the concurrency never rewrites the webhook.
    if (!webhookChanged) return { patch };
    if (url) {
      const config: NonNullable<AgentSettingsPatch['notification_config']> = { endpoint_url: url };
      if (authHeader.trim()) config.auth_header = authHeader.trim();
      if (secret.trim()) config.signing_secret = secret.trim();
      patch.notification_config = config;
    } else if (original) patch.notification_config = null;
    return { patch };
  };

  const save = async (patch: AgentSettingsPatch, done: string): Promise<void> => {
    setBusy(true);
    setFormError(undefined);
    try {
      await patchAgent(agent.slug, patch);
      setSecret('');
      toast('success', done);
    } catch (err) {
      setFormError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const result = validate();
    if ('errors' in result) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    if (Object.keys(result.patch).length === 0) {
      toast('info', 'Nothing to save: no setting changed.');
      return;
    }
    void save(result.patch, `Settings of ${agent.display_name} saved.`);
  };

  const err = (key: string): { 'aria-invalid'?: true; 'aria-describedby'?: string } =>
    errors[key] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${key}-err` } : {};

  return (
    <form className="panel settings-form" onSubmit={submit} noValidate aria-label={`${agent.display_name} settings`}>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-concurrency`}>
          Tasks at once
        </label>
        <p className="field-desc">How many of its tasks may run at the same time; the rest wait in the queue. The manifest says {agent.manifest_concurrency}.</p>
        <input
          id={`${id}-concurrency`}
          className="input input-number"
          inputMode="numeric"
          value={concurrency}
          onChange={(e) => setConcurrency(e.target.value)}
          {...err('concurrency')}
        />
        <FieldError id={`${id}-concurrency-err`} message={errors.concurrency} />
      </div>
      <fieldset className="fieldset">
        <legend className="field-label">Webhook</legend>
        <p className="field-desc">Every status change of this agent’s tasks is posted to this endpoint (orchestrators can also set one per task).</p>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-endpoint`}>
            Endpoint URL
          </label>
          <input
            id={`${id}-endpoint`}
            className="input"
            type="url"
            placeholder="https://orchestrator.example/hooks"
            value={endpoint}
            onChange={(e) => setEndpoint(e.target.value)}
            {...err('endpoint')}
          />
          <FieldError id={`${id}-endpoint-err`} message={errors.endpoint} />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-auth`}>
            Auth header <span className="field-optional">optional</span>
          </label>
          <p className="field-desc">Sent with every notification. The stored value is shown masked; leave it as it is to keep it.</p>
          <input
            id={`${id}-auth`}
            className="input input-mono"
            placeholder="Authorization: Bearer …"
            autoComplete="off"
            spellCheck={false}
            value={authHeader}
            onChange={(e) => setAuthHeader(e.target.value)}
            {...err('auth')}
          />
          <FieldError id={`${id}-auth-err`} message={errors.auth} />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-secret`}>
            Signing secret <span className="field-optional">optional</span>
          </label>
          <p className="field-desc">Signs notifications (Standard Webhooks). Never shown again once saved; enter a new one to replace it.</p>
          <input
            id={`${id}-secret`}
            className="input input-mono"
            type="password"
            placeholder="whsec_…"
            autoComplete="new-password"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
            {...err('secret')}
          />
          <FieldError id={`${id}-secret-err`} message={errors.secret} />
        </div>
      </fieldset>
      {formError && (
        <div className="form-error" role="alert">
          <Icon name="alert" size={14} /> <span>{formError}</span>
        </div>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save settings'}
        </button>
        {agent.notification_config && (
          <button
            type="button"
            className="btn btn-danger-ghost"
            disabled={busy}
            onClick={() => {
              setEndpoint('');
              setAuthHeader('');
              void save({ notification_config: null }, `Webhook of ${agent.display_name} removed.`);
            }}
          >
            <Icon name="trash" size={14} /> Remove webhook
          </button>
        )}
      </div>
    </form>
  );
}
