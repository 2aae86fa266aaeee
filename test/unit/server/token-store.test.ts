import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../build/main/core/store/database.js';
import { TokenStore } from '../../../build/main/core/store/token-store.js';
import { makeTempDir } from '../../support/temp-dir.js';

describe('TokenStore', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let db: Db;
  let tokens: TokenStore;

  beforeEach(() => {
    tmp = makeTempDir();
    db = openDatabase(`${tmp.dir}/agent-host.db`);
    tokens = new TokenStore(db);
  });
  afterEach(() => {
    db.close();
    tmp.cleanup();
  });

  it('creates ah_ + 32 random bytes (base64url) tokens, shown once and stored only as SHA-256', () => {
    const created = tokens.create('  laptop  ');
    expect(created).toEqual({
      token_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'laptop',
      token: expect.stringMatching(/^ah_[A-Za-z0-9_-]{43}$/),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(Buffer.from(created.token.slice(3), 'base64url')).toHaveLength(32);
    const row = db.prepare('SELECT * FROM api_tokens').get() as Record<string, unknown>;
    expect(row['token_hash']).toBe(createHash('sha256').update(created.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.token.slice(3));
    expect(tokens.create('laptop').token).not.toBe(created.token);
  });

  it('lists tokens without any secret', () => {
    const a = tokens.create('a');
    const b = tokens.create('b');
    const listed = tokens.list();
    expect(listed).toEqual([
      { token_id: a.token_id, name: 'a', created_at: a.created_at, last_used_at: null },
      { token_id: b.token_id, name: 'b', created_at: b.created_at, last_used_at: null },
    ]);
    expect(JSON.stringify(listed)).not.toMatch(/ah_|hash/);
  });

  it('verifies current tokens only, recording the first use', () => {
    const a = tokens.create('a');
    const b = tokens.create('b');
    expect(tokens.verify(a.token)).toBe(true);
    expect(tokens.verify(b.token)).toBe(true);
    for (const wrong of ['', 'ah_', `${a.token}x`, a.token.slice(0, -1), a.token.slice(3), a.token.toUpperCase(), 'Bearer ' + a.token]) {
      expect(tokens.verify(wrong), wrong).toBe(false);
    }
    const used = tokens.list().find((t) => t.token_id === a.token_id);
    expect(used?.last_used_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('updates last_used_at at most once a minute', () => {
    const a = tokens.create('a');
    db.prepare('UPDATE api_tokens SET last_used_at = ? WHERE token_id = ?').run('2020-01-01T00:00:00.000Z', a.token_id);
    expect(tokens.verify(a.token)).toBe(true);
    const first = tokens.list()[0]!.last_used_at!;
    expect(first > '2020-01-01T00:00:00.000Z').toBe(true);
    const recent = new Date(Date.now() - 10_000).toISOString();
    db.prepare('UPDATE api_tokens SET last_used_at = ? WHERE token_id = ?').run(recent, a.token_id);
    expect(tokens.verify(a.token)).toBe(true);
    expect(tokens.list()[0]!.last_used_at).toBe(recent);
  });

  it('revokes a token, reporting whether there was one', () => {
    const a = tokens.create('a');
    expect(tokens.revoke(a.token_id)).toBe(true);
    expect(tokens.revoke(a.token_id)).toBe(false);
    expect(tokens.verify(a.token)).toBe(false);
    expect(tokens.list()).toEqual([]);
  });

  it('refuses an empty or overlong name', () => {
    expect(() => tokens.create('   ')).toThrow(/name/);
    expect(() => tokens.create('x'.repeat(101))).toThrow(/name/);
    expect(tokens.list()).toEqual([]);
  });
});
