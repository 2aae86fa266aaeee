/**
 * Settings → Desktop, only in the desktop window and only where the system lets an app start at
 * login: "Start Agent Host when I log in". It shows what the system says (off unless it says on)
 * and changes it only when the person flips the switch.
 */
import { useEffect, useState } from 'react';
import type { LoginItemState } from '../../../main/shared/desktop-bridge.js';
import { errorMessage } from '../api/http.js';
import { Icon } from '../components/Icon.js';
import { Toggle } from '../components/Toggle.js';
import { loginItemControl, type LoginItemControl } from '../desktop.js';
import { useActions } from '../store/react.js';

export function DesktopSection() {
  // The preload's facade is there from the page's start, or never: read once.
  const [control] = useState(loginItemControl);
  return control ? <LoginItemCard control={control} /> : null;
}

type Reading = { status: 'loading' } | { status: 'ready'; value: LoginItemState } | { status: 'error'; message: string };

function LoginItemCard({ control }: { control: LoginItemControl }) {
  const { toast } = useActions();
  const [reading, setReading] = useState<Reading>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let current = true;
    control.get().then(
      (value) => {
        if (current) setReading({ status: 'ready', value });
      },
      (err: unknown) => {
        if (!current) return;
        toast('error', `Could not read the start-at-login setting: ${errorMessage(err)}`);
        setReading({ status: 'error', message: errorMessage(err) });
      },
    );
    return () => {
      current = false;
    };
  }, [control, toast, attempt]);

  const change = (enabled: boolean): void => {
    if (saving) return;
    setSaving(true);
    control
      .set(enabled)
      .then((value) => setReading({ status: 'ready', value }))
      .catch((err: unknown) => toast('error', `Could not ${enabled ? 'turn on' : 'turn off'} start at login: ${errorMessage(err)}`))
      .finally(() => setSaving(false));
  };

  // Nothing until the system has answered (it may say the setting does not exist here).
  if (reading.status === 'loading') return null;
  if (reading.status === 'ready' && !reading.value.supported) return null;
  return (
    <section className="card settings-card" aria-labelledby="desktop-title">
      <h2 className="card-title" id="desktop-title">
        Desktop
      </h2>
      <p className="card-lead">How Agent Host runs on this computer.</p>
      {reading.status === 'error' ? (
        <div className="form-error" role="alert">
          <Icon name="alert" size={14} />
          <span className="grow">Could not read whether Agent Host starts at login: {reading.message}</span>
          <button type="button" className="btn btn-sm" onClick={() => setAttempt((n) => n + 1)}>
            <Icon name="refresh" size={14} /> Try again
          </button>
        </div>
      ) : (
        <div className="field field-switch">
          <div>
            <span className="field-label">Start Agent Host when I log in</span>
            <p className="field-desc">It starts in the tray with its window hidden, so orchestrators reach your agents as soon as you log in.</p>
          </div>
          <Toggle checked={reading.value.enabled} onChange={change} label="Start Agent Host when I log in" disabled={saving} />
        </div>
      )}
    </section>
  );
}
