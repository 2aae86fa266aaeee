/**
 * While intake is paused, a strip across the top of every view: orchestrators' new tasks are being
 * turned away, which is easy to forget, so it stays until intake is resumed.
 */
import { useActions, useApp, useAppShallow } from '../store/react.js';
import { Icon } from './Icon.js';
import { RelativeTime } from './RelativeTime.js';

export function IntakeBanner() {
  const { paused, pausedAt, saving } = useAppShallow((s) => ({ paused: s.intake.data?.paused === true, pausedAt: s.intake.data?.paused_at, saving: s.intake.saving }));
  const { setIntakePaused } = useActions();
  if (!paused) return null;
  return (
    <section className="intake-banner" aria-label="Intake paused">
      <span className="intake-banner-icon" aria-hidden="true">
        <Icon name="pause" size={14} />
      </span>
      <p className="intake-banner-text">
        <strong>Intake paused</strong> — new tasks are refused (503) until you resume
        {pausedAt !== undefined && (
          <span className="intake-banner-since">
            {' '}
            · since <RelativeTime iso={pausedAt} />
          </span>
        )}
      </p>
      <button type="button" className="btn btn-sm intake-banner-action" onClick={() => void setIntakePaused(false)} disabled={saving} aria-busy={saving}>
        <Icon name="play" size={12} /> {saving ? 'Resuming…' : 'Resume'}
      </button>
    </section>
  );
}

/** The nav's quiet reminder of the same (a link to the setting), shown only while paused. */
export function IntakeIndicator() {
  const paused = useApp((s) => s.intake.data?.paused === true);
  if (!paused) return null;
  return (
    <a
      className="intake-indicator"
      href="#/settings"
      aria-label="Intake paused: open the Intake setting"
      title="Intake is paused: new tasks are refused until you resume (Settings → Intake)"
    >
      <Icon name="pause" size={12} />
      <span className="intake-indicator-label">Intake paused</span>
    </a>
  );
}
