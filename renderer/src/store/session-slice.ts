import type { SessionInfo } from '../../../main/shared/control-api.js';
import { errorMessage, isApiError } from '../api/http.js';
import type { Slice } from './types.js';

export type SessionState =
  /** `first`: the check at start-up (a splash, not the sign-in screen). */
  | { status: 'checking'; first: boolean }
  | { status: 'ready'; info: SessionInfo }
  /** No session: `invalid-token` after a link that did not work, `ended` when a session stopped being accepted. */
  | { status: 'signed-out'; reason: 'none' | 'invalid-token' | 'ended' }
  | { status: 'unreachable'; message: string };

export interface SessionSlice {
  session: SessionState;
  /** With a token (from the link the host printed): exchanges it for a session cookie. */
  startSession(token?: string): Promise<void>;
  /** Any request answered 401: the cookie is no longer accepted (host restarted, session revoked). */
  sessionEnded(): void;
}

export const sessionSlice: Slice<SessionSlice> = ({ api }) => (set, get) => ({
  session: { status: 'checking', first: true },

  async startSession(token) {
    const current = get().session;
    set({ session: { status: 'checking', first: current.status === 'checking' && current.first } });
    try {
      const info = token ? await exchange(token) : await api.getSession();
      set({ session: { status: 'ready', info } });
    } catch (err) {
      if (isApiError(err) && err.status === 401) {
        set({ session: { status: 'signed-out', reason: token ? 'invalid-token' : 'none' } });
      } else {
        set({ session: { status: 'unreachable', message: errorMessage(err) } });
      }
    }

    async function exchange(t: string): Promise<SessionInfo> {
      try {
        return await api.createSession(t);
      } catch (err) {
        // A link opened a second time: its token is spent, but this browser may still hold the
        // session it created the first time.
        if (isApiError(err) && err.status === 401) return api.getSession().catch(() => Promise.reject(err));
        throw err;
      }
    }
  },

  sessionEnded() {
    if (get().session.status === 'ready') set({ session: { status: 'signed-out', reason: 'ended' } });
  },
});
