/** Settings → Intake: pause or resume taking new tasks (the banner on every view offers Resume too). */
import { useEffect } from 'react';
import { Icon } from '../components/Icon.js';
import { RelativeTime } from '../components/RelativeTime.js';
import { ErrorState, SkeletonRows } from '../components/States.js';
import { Toggle } from '../components/Toggle.js';
import { useActions, useApp } from '../store/react.js';

export function IntakeSection() {
  const intake = useApp((s) => s.intake);
  const { loadIntake, setIntakePaused } = useActions();
  useEffect(() => {
    if (intake.status === 'idle') void loadIntake();
  }, [intake.status, loadIntake]);
  const paused = intake.data?.paused === true;
  return (
    <section className="card settings-card" aria-labelledby="intake-title">
      <h2 className="card-title" id="intake-title">
        Intake
      </h2>
      <p className="card-lead">Whether orchestrators can start new tasks. Saved to config.json, so a restart keeps it.</p>
      {intake.status === 'error' && !intake.data ? (
        <ErrorState title="Could not load the intake state" message={intake.error ?? ''} onRetry={() => void loadIntake()} />
      ) : !intake.data ? (
        <SkeletonRows rows={1} label="Loading the intake state" />
      ) : (
        <>
          <div className="field field-switch">
            <div>
              <span className="field-label">Pause intake</span>
              <p className="field-desc">
                While paused, new tasks are refused with 503 <code>INTAKE_PAUSED</code> and a <code>Retry-After</code> header, so orchestrators try again
                later. Tasks already running, answers to prompts and cancels go on as usual.
              </p>
            </div>
            <Toggle checked={paused} onChange={(next) => void setIntakePaused(next)} label="Pause intake" disabled={intake.saving} />
          </div>
          <p className={`intake-state ${paused ? 'is-paused' : 'is-open'}`}>
            <Icon name={paused ? 'pause' : 'check'} size={13} />
            {paused ? (
              <span>
                Paused{intake.data.paused_at !== undefined && <> since <RelativeTime iso={intake.data.paused_at} /></>}: new tasks are refused.
              </span>
            ) : (
              <span>Accepting new tasks.</span>
            )}
          </p>
        </>
      )}
    </section>
  );
}
