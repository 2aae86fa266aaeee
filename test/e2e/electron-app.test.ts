/**
 * The real desktop app, driven by Playwright's Electron support: launch, the window shows the
 * Inbox, a task sent to the A2A API appears, its prompt is answered in the window, the tray's
 * count follows, and quitting leaves no process behind. These need Electron's binary, which cannot
 * be downloaded on every machine: where it is absent the tests are skipped with the reason, and
 * the same shell code is exercised under plain Node by test/unit/shell/shell-app.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/temp-dir.js';
import { fetchJson } from '../support/fetch-json.js';
import { SCREENSHOT_DIR } from '../support/browser.js';
import { SHELL_ENTRY, electronBinary, electronMissingReason, ensureDisplay } from '../support/electron-app.js';

const missing = electronMissingReason();
if (missing) console.warn(`Electron app tests skipped: ${missing}`);

interface ShellState {
  a2aUrl: string;
  controlUrl: string;
  tray: { type: string; label?: string }[];
}

describe.skipIf(missing !== undefined)('desktop app in Electron', () => {
  let app: ElectronApplication;
  let page: Page;
  let stopDisplay = (): void => undefined;
  const temp = makeTempDir('agent-host-electron-');

  async function shellState(): Promise<ShellState> {
    return app.evaluate(() => {
      const shell = (globalThis as unknown as { agentHostShell: { a2aUrl: string; controlUrl: string; trayModel: () => unknown[] } }).agentHostShell;
      return { a2aUrl: shell.a2aUrl, controlUrl: shell.controlUrl, tray: shell.trayModel() } as never;
    });
  }

  beforeAll(async () => {
    const display = await ensureDisplay();
    stopDisplay = display.stop;
    app = await _electron.launch({
      executablePath: electronBinary(),
      args: [SHELL_ENTRY, '--data-dir', temp.dir, '--port', '0', '--control-port', '0'],
      env: { ...process.env, ...display.env, AGENT_HOST_E2E: '1' } as Record<string, string>,
    });
    page = await app.firstWindow();
  }, 60_000);

  afterAll(async () => {
    await app?.close().catch(() => undefined);
    stopDisplay();
    temp.cleanup();
  });

  it('shows the Inbox, with no Node in the page', async () => {
    await page.getByRole('heading', { name: /Inbox/ }).waitFor();
    expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
    expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined');
    expect(await page.evaluate(() => Object.keys((globalThis as unknown as { agentHost: object }).agentHost).sort())).toEqual([
      'getInfo', 'getLoginItem', 'onOpenPrompt', 'openArtifact', 'revealArtifact', 'setLoginItem',
    ]);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/electron-inbox.png` });
  });

  it('a task from the A2A API appears, its prompt is answered in the window, the tray count follows', async () => {
    const { a2aUrl } = await shellState();
    const created = await fetchJson<{ task_id: string }>('POST', `${a2aUrl}/agents/echo/tasks`, { input: { message: 'hi', ask: 'Ship it?' } });
    expect(created.status).toBe(202);
    await page.getByText('Ship it?').waitFor();
    await expect.poll(async () => (await shellState()).tray.map((item) => item.label)).toContain('1 prompt waiting');
    const card = page.locator('article', { hasText: 'Ship it?' }).first();
    await card.locator('textarea, input').first().fill('{"ok": true}');
    await card.getByRole('button', { name: /answer|send/i }).click();
    await expect.poll(async () => (await fetchJson<{ status: string }>('GET', `${a2aUrl}/agents/echo/tasks/${created.body.task_id}`)).body.status, { timeout: 20_000 }).toBe('COMPLETED');
    await expect.poll(async () => (await shellState()).tray.map((item) => item.label)).toContain('No prompts waiting');
  });

  it('quits in order and leaves nothing running', async () => {
    const { a2aUrl } = await shellState();
    const pid = app.process().pid!;
    await app.evaluate(({ app: electronApp }) => electronApp.quit());
    await new Promise<void>((resolve) => app.process().once('exit', () => resolve()));
    await expect(fetch(`${a2aUrl}/agents`)).rejects.toThrow();
    // No process of the app (workers included) is left in its process group.
    const left = execFileSync('ps', ['-eo', 'pid,pgid,args'], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes(temp.dir) || line.trim().startsWith(`${pid} `));
    expect(left).toEqual([]);
  });
});
