/**
 * Shown without a session: how to get one (the link agent-host printed), and a box to paste that
 * link or its token for people who opened the UI some other way.
 */
import { useId, useState, type FormEvent } from 'react';
import { Icon } from '../components/Icon.js';
import type { SessionState } from '../store/session-slice.js';
import { useActions } from '../store/react.js';

export function SessionScreen({ session }: { session: Exclude<SessionState, { status: 'ready' }> }) {
  const { startSession } = useActions();
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const id = useId();
  const checking = session.status === 'checking';

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const token = tokenFrom(value);
    if (!token) {
      setProblem('Paste the whole link (it contains ?token=…) or just the token.');
      return;
    }
    setProblem(undefined);
    void startSession(token);
  };

  return (
    <main className="session-screen">
      <div className="session-card">
        <div className="session-logo">
          <Icon name="logo" size={28} />
        </div>
        <h1 className="session-title">{heading(session)}</h1>
        <p className="session-lead">{lead(session)}</p>
        {session.status !== 'unreachable' && (
          <>
            <pre className="session-sample" aria-label="What agent-host prints">
              <span className="tok-comment">$ npx agent-host --headless</span>
              {'\n'}Agent Host listening on http://127.0.0.1:7410{'\n'}
              <span className="session-sample-hl">Control UI: http://127.0.0.1:…/?token=…</span>
            </pre>
            <form className="session-form" onSubmit={submit}>
              <label htmlFor={id} className="field-label">
                Or paste the link here
              </label>
              <div className="session-row">
                <input
                  id={id}
                  className="input input-mono"
                  value={value}
                  onChange={(e) => setValue(e.target.value)}
                  placeholder="http://127.0.0.1:…/?token=…"
                  autoComplete="off"
                  spellCheck={false}
                  aria-invalid={problem ? true : undefined}
                  aria-describedby={problem ? `${id}-err` : undefined}
                />
                <button type="submit" className="btn btn-primary" disabled={checking}>
                  {checking ? 'Checking…' : 'Open'}
                </button>
              </div>
              {problem && (
                <p className="field-error" id={`${id}-err`}>
                  <Icon name="alert" size={12} /> {problem}
                </p>
              )}
            </form>
          </>
        )}
        {session.status === 'unreachable' && (
          <button type="button" className="btn btn-primary" onClick={() => void startSession()}>
            <Icon name="refresh" size={14} /> Try again
          </button>
        )}
        <p className="session-note">
          Each link works once and only on this computer: it signs this browser in with a cookie, then the token is removed from the address bar.
        </p>
      </div>
    </main>
  );
}

function heading(session: Exclude<SessionState, { status: 'ready' }>): string {
  if (session.status === 'unreachable') return 'Agent Host is not answering';
  if (session.status === 'signed-out' && session.reason === 'invalid-token') return 'That link has expired';
  if (session.status === 'signed-out' && session.reason === 'ended') return 'Your session has ended';
  return 'Open the link printed by agent-host';
}

function lead(session: Exclude<SessionState, { status: 'ready' }>): string {
  if (session.status === 'unreachable') return `${session.message} Start it again, then try once more.`;
  if (session.status === 'signed-out' && session.reason === 'invalid-token') {
    return 'Its token was already used or is not known to this Agent Host. Use the newest link that agent-host printed.';
  }
  if (session.status === 'signed-out' && session.reason === 'ended') {
    return 'Agent Host no longer accepts this browser’s session (it may have restarted). Open the link it printed to continue.';
  }
  return 'This window shows the tasks your agents receive, their questions to you and what they produce. To open it, use the link agent-host printed when it started.';
}

/** The token from a pasted link (`…?token=X`) or a bare token. */
export function tokenFrom(input: string): string | undefined {
  const text = input.trim();
  if (!text) return undefined;
  try {
    const url = new URL(text);
    return url.searchParams.get('token') ?? undefined;
  } catch {
    return /^[A-Za-z0-9._~+/=-]{8,}$/.test(text) ? text : undefined;
  }
}
