import type { IntakeState } from '../../../main/shared/control-api.js';
import { errorMessage } from '../api/http.js';
import type { LoadStatus, Slice } from './types.js';

/** Whether the host takes new tasks (`GET/PUT /api/intake`); while paused, new tasks get 503. */
export interface IntakeSliceState {
  data?: IntakeState;
  status: LoadStatus;
  error?: string;
  /** A pause or resume is on its way (its controls wait for it). */
  saving: boolean;
  requestedAt: number;
}

export interface IntakeSlice {
  intake: IntakeSliceState;
  loadIntake(): Promise<void>;
  /** Pauses or resumes intake; resolves false, after an error toast, when that did not happen. */
  setIntakePaused(paused: boolean): Promise<boolean>;
}

export const intakeSlice: Slice<IntakeSlice> = ({ api, now }) => (set, get) => {
  // Bumped by every load and every change: an older answer never overwrites a newer state.
  let generation = 0;
  const patch = (p: Partial<IntakeSliceState>): void => set((s) => ({ intake: { ...s.intake, ...p } }));
  return {
    intake: { status: 'idle', saving: false, requestedAt: 0 },

    async loadIntake() {
      const gen = ++generation;
      if (get().intake.status !== 'ready') patch({ status: 'loading' });
      patch({ requestedAt: now() });
      try {
        const data = await api.getIntake();
        if (gen === generation) patch({ data, status: 'ready', error: undefined });
      } catch (err) {
        if (gen === generation) patch({ status: 'error', error: errorMessage(err) });
      }
    },

    async setIntakePaused(paused) {
      if (get().intake.saving) return false;
      patch({ saving: true });
      try {
        const data = await api.setIntake(paused);
        ++generation;
        patch({ data, status: 'ready', error: undefined });
        get().toast(
          data.paused ? 'info' : 'success',
          data.paused ? 'Intake paused: new tasks are refused until you resume.' : 'Intake resumed: new tasks are accepted again.',
        );
        return data.paused === paused;
      } catch (err) {
        get().toast('error', `Could not ${paused ? 'pause' : 'resume'} intake: ${errorMessage(err)}`);
        return false;
      } finally {
        patch({ saving: false });
      }
    },
  };
};
