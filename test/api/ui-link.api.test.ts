/** `agent-host ui-link`, a real process beside a running host: a fresh desk UI link without a restart. */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../build/main/core/store/database.js';
import { UiLoginStore } from '../../build/main/core/store/ui-login-store.js';
import { runCli } from '../support/cli-process.js';
import { fetchJson } from '../support/fetch-json.js';
import { makeTempDir } from '../support/temp-dir.js';
import { startTestHost, type TestHost } from '../support/test-host.js';

let t: TestHost | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

async function uiLink(dataDir: string) {
  const cli = runCli(['ui-link', '--data-dir', dataDir]);
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

describe('agent-host ui-link', () => {
  it('prints a link the running host accepts once, as a browser session', async () => {
    t = await startTestHost();
    const { code, stdout } = await uiLink(t.dataDir);
    expect(code).toBe(0);
    const [link, hint] = stdout.trim().split('\n');
    expect(hint).toBe('Open it in a browser on this machine within 10 minutes; it works once.');
    const url = new URL(link!);
    expect(url.origin).toBe(t.controlUrl);
    const token = url.searchParams.get('token')!;
    const signIn = () => fetchJson<{ desktop: boolean }>('POST', `${t!.controlUrl}/api/session`, { token }, { origin: t!.controlUrl });
    const first = await signIn();
    expect(first.status).toBe(200);
    expect(first.body.desktop).toBe(false);
    expect(first.headers.get('set-cookie')).toMatch(/^ah_session=/);
    const again = await signIn();
    expect(again.status).toBe(401);
    expect(again.text).toContain('agent-host ui-link');
  });

  it('says the host is not running: after it stopped, when its process is gone, or with no data at all', async () => {
    t = await startTestHost();
    const dataDir = t.dataDir;
    await t.stop();
    const stopped = await uiLink(dataDir);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain(`Agent Host is not running with the data folder ${dataDir}`);
    expect(stopped.stdout).toBe('');

    // A host that was killed never withdrew its address: the dead pid tells.
    const db = openDatabase(join(dataDir, 'agent-host.db'));
    new UiLoginStore(db).announce(2 ** 22 + 12345, 'http://127.0.0.1:1');
    db.close();
    expect((await uiLink(dataDir)).code).toBe(1);

    const empty = makeTempDir();
    try {
      const none = await uiLink(join(empty.dir, 'nothing-here'));
      expect(none.code).toBe(1);
      expect(none.stderr).toContain('is not running');
    } finally {
      empty.cleanup();
    }
  });
});
