import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { ErrorCode } from '../../shared/error-codes.js';
import { nowIso } from '../clock.js';
import { HostError } from '../host-error.js';
import type { Db } from './database.js';

/** A token as listed: never its secret, which exists only in the reply to `create`. */
export interface ApiToken {
  token_id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** What `create` returns: the only time the secret `token` is ever shown. */
export interface CreatedApiToken {
  token_id: string;
  name: string;
  token: string;
  created_at: string;
}

interface TokenRow {
  token_id: string;
  name: string;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
}

export const TOKEN_PREFIX = 'ah_';
const MAX_NAME_LENGTH = 100;
/** last_used_at is kept to the minute, so a busy client doesn't turn every request into a write. */
const LAST_USED_RESOLUTION_MS = 60_000;

function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * API tokens for the A2A server, over the `api_tokens` table. Only a SHA-256 of each token is
 * stored: a leaked database does not leak usable tokens (the tokens are 256 random bits, so an
 * unsalted fast hash cannot be brute-forced).
 */
export class TokenStore {
  private readonly stmt;

  constructor(db: Db) {
    this.stmt = {
      insert: db.prepare<[string, string, string, string]>(
        'INSERT INTO api_tokens (token_id, name, token_hash, created_at) VALUES (?, ?, ?, ?)',
      ),
      all: db.prepare<[], TokenRow>('SELECT * FROM api_tokens ORDER BY created_at, rowid'),
      delete: db.prepare<[string]>('DELETE FROM api_tokens WHERE token_id = ?'),
      touch: db.prepare<[string, string]>('UPDATE api_tokens SET last_used_at = ? WHERE token_id = ?'),
    };
  }

  /** Creates a token named `name` (1–100 characters after trimming). */
  create(name: string): CreatedApiToken {
    const trimmed = name.trim();
    if (trimmed.length === 0 || trimmed.length > MAX_NAME_LENGTH) {
      throw new HostError(400, ErrorCode.BAD_REQUEST, `a token name must be 1–${MAX_NAME_LENGTH} characters`);
    }
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const created: CreatedApiToken = {
      token_id: randomUUID(),
      name: trimmed,
      token,
      created_at: nowIso(),
    };
    this.stmt.insert.run(created.token_id, created.name, hashToken(token).toString('hex'), created.created_at);
    return created;
  }

  list(): ApiToken[] {
    return this.stmt.all.all().map((row) => ({
      token_id: row.token_id,
      name: row.name,
      created_at: row.created_at,
      last_used_at: row.last_used_at,
    }));
  }

  /** Deletes the token; false when there was no such token. */
  revoke(tokenId: string): boolean {
    return this.stmt.delete.run(tokenId).changes === 1;
  }

  /** Whether `token` is a current token; a match records when it was last used. */
  verify(token: string): boolean {
    if (!token.startsWith(TOKEN_PREFIX)) return false;
    const presented = hashToken(token);
    // Compare with every stored hash using timingSafeEqual and without stopping at a match:
    // an indexed `WHERE token_hash = ?` would compare bytes with an early exit, and stopping at
    // the first match would make the time depend on which token matched. The set is small (a
    // handful of tokens), so the scan costs nothing measurable.
    let matched: TokenRow | undefined;
    for (const row of this.stmt.all.all()) {
      const stored = Buffer.from(row.token_hash, 'hex');
      if (stored.length === presented.length && timingSafeEqual(stored, presented)) matched = row;
    }
    if (!matched) return false;
    const now = nowIso();
    if (matched.last_used_at === null || Date.parse(now) - Date.parse(matched.last_used_at) >= LAST_USED_RESOLUTION_MS) {
      this.stmt.touch.run(now, matched.token_id);
    }
    return true;
  }
}
