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

  /** What the shell exposes to these tests (AGENT_HOST_E2E=1), once it is up. */
  async function shellState(): Promise<ShellState> {
    const read = () =>
      app.evaluate(() => {
        const shell = (globalThis as unknown as { agentHostShell?: { a2aUrl: string; controlUrl: string; trayModel: () => unknown[] } }).agentHostShell;
        return (shell ? { a2aUrl: shell.a2aUrl, controlUrl: shell.controlUrl, tray: shell.trayModel() } : undefined) as never;
      }) as Promise<ShellState | undefined>;
    await expect.poll(read, { timeout: 30_000 }).toBeDefined();
    return (await read())!;
  }

  beforeAll(async () => {
    const display = await ensureDisplay();
    stopDisplay = display.stop;
    app = await _electron.launch({
      executablePath: electronBinary(),
      args: [
        // Chromium refuses to run as root with its sandbox on (CI containers); the page keeps Electron's own sandbox flags.
        ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
        SHELL_ENTRY,
        '--data-dir',
        temp.dir,
        '--port',
        '0',
        '--control-port',
        '0',
      ],
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
      'getInfo', 'getLoginItem', 'onOpenPrompt', 'openArtifact', 'revealArtifact', 'setLoginItem', 'showNotification',
    ]);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/electron-inbox.png` });
  });

  it('a task from the A2A API appears, its prompt is answered in the window, the tray count follows', async () => {
    const { a2aUrl } = await shellState();
    const created = await fetchJson<{ task_id: string }>('POST', `${a2aUrl}/agents/echo/tasks`, { input: { message: 'hi', ask: 'Ship it?' } });
    expect(created.status).toBe(202);
    const card = page.getByRole('list', { name: 'Waiting for an answer' }).getByRole('listitem', { name: 'Ship it?' });
    await card.waitFor();
    await expect.poll(async () => (await shellState()).tray.map((item) => item.label)).toContain('1 prompt waiting');
    await card.getByLabel('Your answer').fill('yes');
    await card.getByRole('button', { name: 'Send answer' }).click();
    await expect.poll(async () => (await fetchJson<{ status: string }>('GET', `${a2aUrl}/agents/echo/tasks/${created.body.task_id}`)).body.status, { timeout: 20_000 }).toBe('COMPLETED');
    await expect.poll(async () => (await shellState()).tray.map((item) => item.label)).toContain('No prompts waiting');
  });

  it('quits in order and leaves nothing running', async () => {
    const { a2aUrl } = await shellState();
    const pid = app.process().pid!;
    const exited = new Promise<number | null>((resolve) => app.process().once('exit', (code) => resolve(code)));
    await app.evaluate(({ app: electronApp }) => electronApp.quit());
    expect(await exited).toBe(0);
    await expect(fetch(`${a2aUrl}/agents`)).rejects.toThrow();
    // No process of the app is left: not its main process, no renderer or GPU helper, no worker.
    const binary = electronBinary();
    const left = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.trim().startsWith(`${pid} `) || line.includes(binary) || line.includes('agent-worker.js'));
    expect(left).toEqual([]);
  });
});
