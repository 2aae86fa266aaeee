/**
 * The desktop app end to end, as far as this machine allows: the real shell (main/shell) with a
 * real host inside, its window a real Chromium page running the real UI and the real preload
 * bundle, talking to the shell's real IPC handlers. Only Electron is a stand-in (its binary cannot
 * be installed here; see test/support/chromium-window.ts). With Electron's binary the same story
 * runs for real in electron-app.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../build/main/core/logger.js';
import { runShell, shellPaths, type RunningShell } from '../../build/main/shell/shell-app.js';
import { chromiumMissingReason, launchChromium, SCREENSHOT_DIR } from '../support/browser.js';
import { useChromiumWindows, type ChromiumWindows } from '../support/chromium-window.js';
import { createTask, getTask, POLL, UI_TIMEOUT, VIEWPORT } from '../support/desk.js';
import { FakeNotification, FakeTray, fakeElectron, type FakeElectron } from '../support/fake-electron.js';
import { makeTempDir } from '../support/temp-dir.js';

const APP_ROOT = new URL('../../', import.meta.url).pathname;

/** This process's children running a task (the host runs inside this test process here). */
function workerProcesses(): string[] {
  return execFileSync('ps', ['-eo', 'ppid=,pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.trim().split(/\s+/)[0] === String(process.pid) && line.includes('agent-worker.js'));
}
const missing = chromiumMissingReason();

describe.skipIf(missing !== undefined)('desktop app (shell + UI in Chromium, Electron stood in)', () => {
  const temp = makeTempDir('agent-host-desktop-e2e-');
  let browser: Browser;
  let context: BrowserContext;
  let fake: FakeElectron;
  let windows: ChromiumWindows;
  let shell: RunningShell;
  const trayLabels = (): string[] => FakeTray.instances.at(-1)!.menu.map((item) => item.label ?? '—');
  const page = () => windows.windows.at(-1)!.page!;

  beforeAll(async () => {
    browser = await launchChromium();
    context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, reducedMotion: 'reduce' });
    context.setDefaultTimeout(UI_TIMEOUT);
    const dataDir = join(temp.dir, 'data');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'config.json'), JSON.stringify({ runtime: { shutdown_grace_ms: 2000 } }));
    fake = fakeElectron();
    windows = useChromiumWindows(fake, context);
    const started = await runShell(fake.electron, shellPaths(APP_ROOT), {
      argv: ['--data-dir', dataDir, '--port', '0', '--control-port', '0'],
      platform: 'linux',
      env: { XDG_CONFIG_HOME: join(temp.dir, 'xdg') },
      launchCommand: ['agent-host'],
      nativeBinding: () => undefined,
      logger: createLogger('silent'),
    });
    if (!started) throw new Error(`the shell did not start: ${JSON.stringify(fake.dialogs)}`);
    shell = started;
    await windows.windows[0]!.loadedPage();
  }, 60_000);

  afterAll(async () => {
    if (shell && fake.app.exitCode === undefined) await shell.quit();
    await browser?.close();
    temp.cleanup();
  });

  it('opens its window on the Inbox, signed in by its own token, with the desktop bridge', async () => {
    await page().getByRole('heading', { level: 1, name: 'Inbox', exact: true }).waitFor();
    expect(await page().evaluate(() => Object.keys((globalThis as unknown as { agentHost: object }).agentHost).sort())).toEqual([
      'getInfo', 'getLoginItem', 'onOpenPrompt', 'openArtifact', 'revealArtifact', 'setLoginItem', 'showNotification',
    ]);
    const info = await page().evaluate(() => (globalThis as unknown as { agentHost: { getInfo(): Promise<unknown> } }).agentHost.getInfo());
    expect(info).toMatchObject({ control_url: shell.host.controlUrl, a2a_url: shell.host.url, platform: 'linux' });
    // The token was spent signing in: the address bar no longer holds it.
    expect(page().url()).not.toContain('token=');
  });

  it('a task from the A2A API appears; its notification opens the prompt; answering it empties the tray', async () => {
    windows.windows.at(-1)!.focused = false; // the person is in another app
    const prompt = 'Deploy build 42 to production?';
    const task = await createTask(shell.host.url, 'echo', { message: 'deploy', ask: prompt });
    const card = page().getByRole('list', { name: 'Waiting for an answer' }).getByRole('listitem', { name: prompt });
    await card.waitFor();
    await expect.poll(trayLabels, POLL).toContain('1 prompt waiting');
    await expect.poll(() => FakeNotification.instances.filter((n) => n.shown).length, POLL).toBe(1);
    expect(FakeNotification.instances[0]!.options.title).toBe('Echo needs your input');

    // The person moved elsewhere in the UI; the notification's click brings them to the prompt.
    await page().evaluate(() => ((globalThis as unknown as { location: { hash: string } }).location.hash = '#/settings'));
    await page().getByRole('heading', { level: 1, name: 'Settings', exact: true }).waitFor();
    FakeNotification.instances[0]!.emit('click');
    await expect.poll(() => page().url(), POLL).toContain(`#/inbox/${task.task_id}`);
    await page().getByRole('heading', { level: 1, name: 'Inbox', exact: true }).waitFor();
    await page().screenshot({ path: join(SCREENSHOT_DIR, 'desktop-prompt-opened.png') });

    await card.getByLabel('Your answer').fill('Yes, ship it');
    await card.getByRole('button', { name: 'Send answer' }).click();
    await expect.poll(async () => (await getTask(shell.host.url, 'echo', task.task_id)).status, POLL).toBe('COMPLETED');
    await expect.poll(trayLabels, POLL).toContain('No prompts waiting');
  });

  it('reveals an artifact from the page through the bridge; bad ids never reach the shell', async () => {
    const task = await createTask(shell.host.url, 'echo', { message: 'files', artifacts: [{ type: 'file', filename: 'notes.md', content: '# hi' }] });
    await expect.poll(async () => (await getTask(shell.host.url, 'echo', task.task_id)).status, POLL).toBe('COMPLETED');
    const artifactId = shell.host.store.listArtifacts(task.task_id)[0]!.artifact.artifact_id;
    type Bridge = { agentHost: { revealArtifact(id: string): Promise<void> } };
    await page().evaluate((id) => (globalThis as unknown as Bridge).agentHost.revealArtifact(id), artifactId);
    expect(fake.shellCalls).toEqual([{ method: 'showItemInFolder', arg: join(shell.host.layout.artifacts, task.task_id, 'notes.md') }]);
    const refused = await page().evaluate(() =>
      (globalThis as unknown as Bridge).agentHost.revealArtifact('../../../etc/passwd').then(() => 'sent', (err: Error) => err.message),
    );
    expect(refused).toMatch(/artifact id/);
    expect(fake.shellCalls).toHaveLength(1);
  });

  it('quits from the tray in order: nothing is left listening, no worker is left running', async () => {
    const { url, controlUrl } = shell.host;
    const slow = await createTask(url, 'echo', { message: 'slow', delay_ms: 60_000 });
    await expect.poll(async () => (await getTask(url, 'echo', slow.task_id)).status, POLL).toBe('WORKING');
    expect(workerProcesses()).toHaveLength(1);
    FakeTray.instances.at(-1)!.click('Quit Agent Host');
    // The same run the click started: if a step failed or timed out, its error says what held it.
    expect((await shell.quit()).failed).toEqual([]);
    expect(await fake.app.exited).toBe(0);
    await expect(fetch(`${url}/agents`)).rejects.toThrow();
    await expect(fetch(`${controlUrl}/`)).rejects.toThrow();
    expect(workerProcesses()).toEqual([]);
    expect(windows.pageErrors).toEqual([]);
  }, 60_000);
});
