import { nowIso } from '../clock.js';
import { newSecret, secretLookupKey } from '../secret-token.js';
import type { Db } from './database.js';

/** How long a login link from `agent-host ui-link` stays usable. */
export const UI_LINK_TTL_MS = 10 * 60 * 1000;

export interface HostPresence {
  pid: number;
  control_url: string;
  started_at: string;
}

/**
 * What lets the command line give a person a fresh desk UI link while the host runs in another
 * process: the running host's control address (announced at start, withdrawn at close), and
 * one-time login tokens, stored hashed and short-lived, which the host's control API consumes.
 */
export class UiLoginStore {
  constructor(private readonly db: Db) {}

  /** A new one-time token, usable for `ttlMs`. */
  mint(ttlMs: number = UI_LINK_TTL_MS, now: Date = new Date()): string {
    const token = newSecret();
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM ui_login_tokens WHERE expires_at <= ?').run(now.toISOString());
      this.db
        .prepare('INSERT INTO ui_login_tokens (token_hash, expires_at) VALUES (?, ?)')
        .run(secretLookupKey(token), new Date(now.getTime() + ttlMs).toISOString());
    })();
    return token;
  }

  /** True, once, for a token minted here and not expired. */
  consume(token: string, now: Date = new Date()): boolean {
    const removed = this.db
      .prepare('DELETE FROM ui_login_tokens WHERE token_hash = ? RETURNING expires_at')
      .get(secretLookupKey(token)) as { expires_at: string } | undefined;
    return removed !== undefined && removed.expires_at > now.toISOString();
  }

  announce(pid: number, controlUrl: string): void {
    this.db
      .prepare('INSERT OR REPLACE INTO host_presence (id, pid, control_url, started_at) VALUES (1, ?, ?, ?)')
      .run(pid, controlUrl, nowIso());
  }

  /** Removes the presence if it is still `pid`'s (another host may have taken over the folder). */
  withdraw(pid: number): void {
    this.db.prepare('DELETE FROM host_presence WHERE pid = ?').run(pid);
  }

  /** The host that announced itself last, if it did not withdraw (it may have died since: check the pid). */
  presence(): HostPresence | undefined {
    return this.db.prepare('SELECT pid, control_url, started_at FROM host_presence WHERE id = 1').get() as HostPresence | undefined;
  }
}
