import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../build/main/core/store/database.js';
import { UI_LINK_TTL_MS, UiLoginStore } from '../../../build/main/core/store/ui-login-store.js';
import { SessionRegistry } from '../../../build/main/core/control/sessions.js';
import { makeTempDir } from '../../support/temp-dir.js';

let db: Db | undefined;
let cleanup = (): void => undefined;
afterEach(() => {
  db?.close();
  cleanup();
});
function store(): UiLoginStore {
  const temp = makeTempDir();
  cleanup = temp.cleanup;
  db = openDatabase(join(temp.dir, 'agent-host.db'));
  return new UiLoginStore(db);
}

describe('login links minted by the command line', () => {
  it('a token works once, and only before it expires', () => {
    const logins = store();
    const start = new Date('2026-12-02T10:00:00.000Z');
    const token = logins.mint(UI_LINK_TTL_MS, start);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(logins.consume(token, new Date(start.getTime() + UI_LINK_TTL_MS - 1))).toBe(true);
    expect(logins.consume(token, start)).toBe(false);
    const late = logins.mint(UI_LINK_TTL_MS, start);
    expect(logins.consume(late, new Date(start.getTime() + UI_LINK_TTL_MS))).toBe(false);
    expect(logins.consume('not-a-token')).toBe(false);
  });

  it('stores only hashes, and drops expired ones when minting', () => {
    const logins = store();
    const old = logins.mint(1000, new Date('2026-12-02T10:00:00.000Z'));
    logins.mint(1000, new Date('2026-12-02T11:00:00.000Z'));
    const rows = db!.prepare('SELECT token_hash FROM ui_login_tokens').all() as { token_hash: string }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toContain(old);
  });

  it('the host announces where it listens and withdraws only its own announcement', () => {
    const logins = store();
    expect(logins.presence()).toBeUndefined();
    logins.announce(111, 'http://127.0.0.1:7411');
    expect(logins.presence()).toMatchObject({ pid: 111, control_url: 'http://127.0.0.1:7411' });
    logins.announce(222, 'http://127.0.0.1:7412');
    logins.withdraw(111);
    expect(logins.presence()).toMatchObject({ pid: 222 });
    logins.withdraw(222);
    expect(logins.presence()).toBeUndefined();
  });

  it('the session registry accepts such a token once, as a browser (not desktop) session', () => {
    const logins = store();
    const sessions = new SessionRegistry(logins);
    const token = logins.mint();
    const opened = sessions.exchange(token);
    expect(opened?.session).toEqual({ desktop: false });
    expect(sessions.get(opened!.id)).toEqual({ desktop: false });
    expect(sessions.exchange(token)).toBeUndefined();
  });
});
