import { newSecret as secret, secretLookupKey as lookupKey } from '../secret-token.js';

/** What a session may do beyond the API: the Electron window's sessions have native helpers. */
export interface SessionGrant {
  desktop: boolean;
}

/** One-time tokens minted by another process (`agent-host ui-link`), consumed once. */
export interface PersistedLoginTokens {
  consume(token: string): boolean;
}

/**
 * The control API's logins, Jupyter-style: a one-time token (printed at start, minted for the
 * desktop window, or left in the database by `agent-host ui-link`) is exchanged once for a
 * session id, which the browser keeps in an HttpOnly cookie. Sessions live in memory only: a
 * restart ends every session, and a token works once.
 */
export class SessionRegistry {
  private readonly tokens = new Map<string, SessionGrant>();
  private readonly sessions = new Map<string, SessionGrant>();

  constructor(private readonly persisted?: PersistedLoginTokens) {}

  /** A new one-time token. */
  mintToken(grant: SessionGrant = { desktop: false }): string {
    const token = secret();
    this.tokens.set(lookupKey(token), { ...grant });
    return token;
  }

  /** Consumes `token` and opens a session; undefined when the token is unknown or was used. */
  exchange(token: string): { id: string; session: SessionGrant } | undefined {
    const key = lookupKey(token);
    let grant = this.tokens.get(key);
    if (grant) this.tokens.delete(key);
    // A link from `agent-host ui-link` opens a browser session, never a desktop one.
    else if (this.persisted?.consume(token)) grant = { desktop: false };
    if (!grant) return undefined;
    const id = secret();
    this.sessions.set(lookupKey(id), grant);
    return { id, session: grant };
  }

  get(id: string): SessionGrant | undefined {
    return this.sessions.get(lookupKey(id));
  }
}
