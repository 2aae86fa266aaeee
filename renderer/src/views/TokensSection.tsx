/**
 * API tokens for orchestrators: the list (no secrets), creating one (its secret shown once, with
 * a copy button) and revoking one (after a confirmation).
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { ApiTokenInfo, CreatedApiTokenInfo } from '../../../main/shared/control-api.js';
import { errorMessage } from '../api/http.js';
import { CopyButton } from '../components/CopyButton.js';
import { FieldError } from '../components/FieldError.js';
import { Icon } from '../components/Icon.js';
import { ConfirmDialog, Modal } from '../components/Modal.js';
import { RelativeTime } from '../components/RelativeTime.js';
import { ErrorState, SkeletonRows } from '../components/States.js';
import { useActions, useApp } from '../store/react.js';

export function TokensSection() {
  const tokens = useApp((s) => s.tokens);
  const { loadTokens } = useActions();
  const [created, setCreated] = useState<CreatedApiTokenInfo | undefined>();
  useEffect(() => {
    if (tokens.status === 'idle') void loadTokens();
  }, [tokens.status, loadTokens]);
  return (
    <section className="card settings-card" aria-labelledby="tokens-title">
      <h2 className="card-title" id="tokens-title">
        API tokens
      </h2>
      <p className="card-lead">Orchestrators send one as Authorization: Bearer &lt;token&gt;. Only a hash is stored: a token is shown once, when it is created.</p>
      {tokens.status === 'error' && tokens.items.length === 0 ? (
        <ErrorState title="Could not load the tokens" message={tokens.error ?? ''} onRetry={() => void loadTokens()} />
      ) : tokens.status !== 'ready' ? (
        <SkeletonRows rows={2} label="Loading tokens" />
      ) : tokens.items.length === 0 ? (
        <p className="muted tokens-empty">
          <Icon name="key" size={14} /> No tokens yet.
        </p>
      ) : (
        <table className="table tokens-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.items.map((t) => (
              <TokenRow key={t.token_id} token={t} />
            ))}
          </tbody>
        </table>
      )}
      <CreateToken onCreated={setCreated} />
      <Modal
        open={created !== undefined}
        onClose={() => setCreated(undefined)}
        title={`Token “${created?.name ?? ''}” created`}
        size="md"
        footer={
          <button type="button" className="btn btn-primary" onClick={() => setCreated(undefined)}>
            I have copied it
          </button>
        }
      >
        <p>Copy it now: it is not shown again. Anyone with it can call your agents.</p>
        <div className="secret-box">
          <code className="mono">{created?.token}</code>
          <CopyButton value={created?.token ?? ''} label="Copy token" showLabel />
        </div>
      </Modal>
    </section>
  );
}

function TokenRow({ token }: { token: ApiTokenInfo }) {
  const { revokeToken, toast } = useActions();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const revoke = async (): Promise<void> => {
    setBusy(true);
    try {
      await revokeToken(token.token_id);
      toast('success', `Token “${token.name}” revoked.`);
      setConfirming(false);
    } catch (err) {
      toast('error', `Could not revoke the token: ${errorMessage(err)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <tr>
      <td>
        <Icon name="key" size={13} /> {token.name}
      </td>
      <td>
        <RelativeTime iso={token.created_at} />
      </td>
      <td>{token.last_used_at ? <RelativeTime iso={token.last_used_at} /> : <span className="muted">never</span>}</td>
      <td className="cell-actions">
        <button type="button" className="btn btn-sm btn-danger-ghost" onClick={() => setConfirming(true)}>
          Revoke
        </button>
        <ConfirmDialog
          open={confirming}
          title={`Revoke “${token.name}”?`}
          confirmLabel="Revoke token"
          danger
          busy={busy}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void revoke()}
        >
          <p>Orchestrators using it are refused from now on. This cannot be undone.</p>
        </ConfirmDialog>
      </td>
    </tr>
  );
}

function CreateToken({ onCreated }: { onCreated: (t: CreatedApiTokenInfo) => void }) {
  const { createToken } = useActions();
  const id = useId();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (!name.trim()) {
      setError('Name it after who will use it, e.g. "build server"');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      onCreated(await createToken(name.trim()));
      setName('');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="token-create" onSubmit={(e) => void submit(e)} noValidate>
      <label className="field-label" htmlFor={id}>
        New token
      </label>
      <div className="list-add">
        <input
          id={id}
          className="input"
          placeholder="Name, e.g. build server"
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-err` : undefined}
        />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          <Icon name="plus" size={14} /> {busy ? 'Creating…' : 'Create token'}
        </button>
      </div>
      <FieldError id={`${id}-err`} message={error} />
    </form>
  );
}
