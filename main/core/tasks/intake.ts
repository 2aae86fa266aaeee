import type { IntakeState } from '../../shared/control-api.js';
import { ErrorCode } from '../../shared/error-codes.js';
import { nowIso } from '../clock.js';
import { updateConfigFile } from '../config/config-writer.js';
import type { IntakeSettings } from '../config/host-config.js';
import type { HostChanges } from '../host-changes.js';
import { HostError } from '../host-error.js';
import type { Logger } from '../logger.js';

/** Seconds a refused create is told to wait (`Retry-After`): a pause is a person's choice, not a blip. */
export const INTAKE_RETRY_AFTER_SECONDS = 60;

/** What the task service asks before storing a new task. */
export interface IntakeGate {
  isPaused(): boolean;
}

/** Pause and resume of new tasks, for the control API and the desktop shell's tray. */
export interface IntakeControl {
  state(): IntakeState;
  /**
   * Pauses or resumes intake: saved to config.json (so a restart keeps it), then applied, then
   * announced (`changed: intake` on the control API's stream, and `onChange`). Setting the current
   * state again changes nothing. Throws ConfigError, changing nothing, when config.json cannot be
   * read or written.
   */
  setPaused(paused: boolean): IntakeState;
  /** Called after every change, from the API or setPaused; returns the unsubscribe function. */
  onChange(listener: (state: IntakeState) => void): () => void;
}

/** The 503 a new task gets while intake is paused. */
export function intakePausedError(): HostError {
  return new HostError(
    503,
    ErrorCode.INTAKE_PAUSED,
    'intake is paused on this host: it accepts no new tasks for now (running tasks go on); retry later',
    undefined,
    { 'retry-after': String(INTAKE_RETRY_AFTER_SECONDS) },
  );
}

export interface IntakeOptions {
  /** config.json, where the state is saved. */
  configFile: string;
  /** The host's live settings object (HostConfig.intake): kept up to date with the state. */
  settings: IntakeSettings;
  changes: Pick<HostChanges, 'emit'>;
  logger: Logger;
}

/** Holds whether the host takes new tasks; the A2A create and the desk's try-it consult it. */
export class Intake implements IntakeControl, IntakeGate {
  private readonly listeners = new Set<(state: IntakeState) => void>();

  constructor(private readonly options: IntakeOptions) {
    const { settings } = options;
    // A pause written by hand may lack its time: it has held at least since this start.
    if (settings.paused && settings.paused_at === undefined) settings.paused_at = nowIso();
    if (!settings.paused) delete settings.paused_at;
  }

  isPaused(): boolean {
    return this.options.settings.paused;
  }

  state(): IntakeState {
    const { paused, paused_at: pausedAt } = this.options.settings;
    return paused && pausedAt !== undefined ? { paused, paused_at: pausedAt } : { paused };
  }

  setPaused(paused: boolean): IntakeState {
    if (paused === this.isPaused()) return this.state();
    const next: IntakeSettings = paused ? { paused: true, paused_at: nowIso() } : { paused: false };
    // Saved before it applies: a config.json that cannot be written leaves intake as it was.
    updateConfigFile(this.options.configFile, (raw) => {
      raw['intake'] = { ...next };
    });
    const { settings } = this.options;
    settings.paused = next.paused;
    if (next.paused_at !== undefined) settings.paused_at = next.paused_at;
    else delete settings.paused_at;
    this.options.logger.info({ paused }, paused ? 'intake paused: new tasks are refused' : 'intake resumed');
    this.options.changes.emit('intake');
    const state = this.state();
    for (const listener of [...this.listeners]) {
      try {
        listener({ ...state });
      } catch (err) {
        // One broken listener (say, the tray) must not keep the others from hearing of the change.
        this.options.logger.error({ err }, 'an intake listener failed');
      }
    }
    return state;
  }

  onChange(listener: (state: IntakeState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
