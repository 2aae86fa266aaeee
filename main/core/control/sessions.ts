import { createHash, randomBytes } from 'node:crypto';

/** What a session may do beyond the API: the Electron window's sessions have native helpers. */
export interface SessionGrant {
  desktop: boolean;
}

/** 32 random bytes, base64url: unguessable, and safe in a URL and a cookie as is. */
function secret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Secrets are looked up by their SHA-256, never by themselves: a Map compares keys with an
 * early exit, so timing could otherwise tell a caller how much of a guess was right.
 */
function lookupKey(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('base64url');
}

/**
 * The control API's logins, Jupyter-style: a one-time token (printed at start, or minted for the
 * desktop window) is exchanged once for a session id, which the browser keeps in an HttpOnly
 * cookie. Both live in memory only: a restart ends every session, and a token works once.
 */
export class SessionRegistry {
  private readonly tokens = new Map<string, SessionGrant>();
  private readonly sessions = new Map<string, SessionGrant>();

  /** A new one-time token. */
  mintToken(grant: SessionGrant = { desktop: false }): string {
    const token = secret();
    this.tokens.set(lookupKey(token), { ...grant });
    return token;
  }

  /** Consumes `token` and opens a session; undefined when the token is unknown or was used. */
  exchange(token: string): { id: string; session: SessionGrant } | undefined {
    const key = lookupKey(token);
    const grant = this.tokens.get(key);
    if (!grant) return undefined;
    this.tokens.delete(key);
    const id = secret();
    this.sessions.set(lookupKey(id), grant);
    return { id, session: grant };
  }

  get(id: string): SessionGrant | undefined {
    return this.sessions.get(lookupKey(id));
  }
}
