/**
 * The desktop shell's wiring under plain Node: a real host (servers, SQLite, workers) inside the
 * shell, with Electron replaced by the recording stand-in of test/support/fake-electron.ts because
 * Electron's binary cannot be installed here. The real-Electron version of these checks is
 * test/e2e/electron-app.test.ts.
 */
import { createServer, type Server } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../build/main/core/logger.js';
import { DesktopChannel } from '../../../build/main/shared/desktop-bridge.js';
import { runShell, shellPaths, type RunningShell } from '../../../build/main/shell/shell-app.js';
import type { Task } from '../../../build/main/shared/protocol.js';
import { FakeBrowserWindow, FakeNotification, FakeTray, fakeElectron, preventable, type FakeElectron } from '../../support/fake-electron.js';
import { fetchJson } from '../../support/fetch-json.js';
import { makeTempDir } from '../../support/temp-dir.js';

const APP_ROOT = new URL('../../../', import.meta.url).pathname;
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Started {
  fake: FakeElectron;
  shell: RunningShell;
  dataDir: string;
  xdg: string;
  window: () => FakeBrowserWindow;
  tray: () => FakeTray;
  a2a: (method: string, path: string, body?: unknown) => ReturnType<typeof fetchJson<Task>>;
}

async function startShell(extraArgs: string[] = [], configure?: (dataDir: string) => void): Promise<Started> {
  const temp = makeTempDir('agent-host-shell-');
  const dataDir = join(temp.dir, 'data');
  const xdg = join(temp.dir, 'xdg');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'config.json'), JSON.stringify({ runtime: { shutdown_grace_ms: 2000 } }));
  configure?.(dataDir);
  const fake = fakeElectron();
  const shell = await runShell(fake.electron, shellPaths(APP_ROOT), {
    argv: ['--data-dir', dataDir, '--port', '0', '--control-port', '0', ...extraArgs],
    platform: 'linux',
    env: { XDG_CONFIG_HOME: xdg },
    launchCommand: ['/opt/Agent Host/agent-host'],
    nativeBinding: () => undefined,
    logger: createLogger('silent'),
  });
  cleanups.push(async () => {
    if (shell && fake.app.exitCode === undefined) await shell.quit();
    temp.cleanup();
  });
  if (!shell) throw new Error(`the shell did not start: ${JSON.stringify(fake.dialogs)}`);
  return {
    fake,
    shell,
    dataDir,
    xdg,
    window: () => FakeBrowserWindow.instances.at(-1)!,
    tray: () => FakeTray.instances.at(-1)!,
    a2a: (method, path, body) => fetchJson<Task>(method, `${shell.host.url}${path}`, body),
  };
}

function menuLabels(tray: FakeTray): string[] {
  return tray.menu.map((item) => item.label ?? `(${item.type})`);
}

describe('desktop shell', () => {
  it('opens a sandboxed window on the control UI with a working one-time desktop token', async () => {
    const { fake, shell, dataDir, window } = await startShell();
    expect(fake.app.paths['userData']).toBe(dataDir);
    const prefs = window().options['webPreferences'] as Record<string, unknown>;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webviewTag: false, webSecurity: true });
    expect(prefs['preload']).toBe(join(APP_ROOT, 'build', 'preload', 'preload.cjs'));
    expect(window().visible).toBe(true);
    const [loaded] = window().loaded;
    const url = new URL(loaded!);
    expect(url.origin).toBe(shell.host.controlUrl);
    expect(url.hash).toBe('#/inbox');
    const token = url.searchParams.get('token')!;
    const session = await fetchJson<{ desktop: boolean }>('POST', `${shell.host.controlUrl}/api/session`, { token }, { origin: shell.host.controlUrl });
    expect(session.status).toBe(200);
    expect(session.body.desktop).toBe(true);
  });

  it('--hidden starts in the tray only; the tray opens the window', async () => {
    const { window, tray } = await startShell(['--hidden']);
    expect(FakeBrowserWindow.instances).toHaveLength(0);
    tray().click('Open Agent Host');
    expect(window().visible).toBe(true);
  });

  it('closing the window keeps the app in the tray; a second launch brings the window back', async () => {
    const { fake, window, shell } = await startShell();
    const close = window().userClose();
    expect(close.defaultPrevented).toBe(true);
    expect(window().visible).toBe(false);
    expect(window().destroyed).toBe(false);
    const status = await fetchJson('GET', `${shell.host.url}/agents`);
    expect(status.status).toBe(200);
    fake.app.emit('second-instance');
    expect(window().visible).toBe(true);
    expect(window().focused).toBe(true);
  });

  it('a waiting prompt shows in the tray and as a notification that opens it; answering clears both', async () => {
    const { a2a, tray, window, fake } = await startShell();
    window().focused = false; // the person is in another app
    expect(menuLabels(tray())).toContain('No prompts waiting');
    const created = await a2a('POST', '/agents/echo/tasks', { input: { message: 'hi', ask: 'Which colour & why?' } });
    expect(created.status).toBe(202);
    const taskId = created.body.task_id;
    await vi.waitFor(() => expect(menuLabels(tray())).toContain('Echo: Which colour && why?'), { timeout: 10_000 });
    expect(menuLabels(tray())).toContain('1 prompt waiting');
    expect(tray().tooltip).toBe('Agent Host — 1 prompt waiting');
    expect(tray().image).toBe(join(APP_ROOT, 'assets', 'tray', 'tray-attention.png'));
    expect(fake.app.badgeCount).toBe(1);

    await vi.waitFor(() => expect(FakeNotification.instances.filter((n) => n.shown)).toHaveLength(1), { timeout: 5_000 });
    const [notification] = FakeNotification.instances;
    expect(notification!.options.title).toBe('Echo needs your input');
    // Linux notification servers read markup: the agent's text is escaped to show as written.
    expect(notification!.options.body).toBe('Which colour &amp; why?');
    notification!.emit('click');
    expect(window().visible).toBe(true);
    expect(window().webContents.sent).toContainEqual({ channel: DesktopChannel.openPrompt, args: [taskId] });

    tray().click('Echo: Which');
    expect(window().webContents.sent.filter((m) => m.channel === DesktopChannel.openPrompt)).toHaveLength(2);

    const answered = await a2a('POST', `/agents/echo/tasks/${taskId}/input`, { input: { colour: 'blue' } });
    expect(answered.status).toBe(200);
    await vi.waitFor(() => expect(menuLabels(tray())).toContain('No prompts waiting'), { timeout: 10_000 });
    expect(tray().tooltip).toBe('Agent Host — no prompts waiting');
    expect(tray().image).toBe(join(APP_ROOT, 'assets', 'tray', 'tray.png'));
    expect(fake.app.badgeCount).toBe(0);
  });

  it('no notification while the Inbox is in front (the prompt appears there); one while another view is', async () => {
    const { a2a, tray, window } = await startShell();
    window().focused = true;
    expect(window().webContents.getURL()).toMatch(/#\/inbox$/);
    await a2a('POST', '/agents/echo/tasks', { input: { message: 'hi', ask: 'Sure?' } });
    await vi.waitFor(() => expect(menuLabels(tray())).toContain('1 prompt waiting'), { timeout: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(FakeNotification.instances).toHaveLength(0);

    window().webContents.url = window().webContents.url.replace(/#.*$/, '#/tasks');
    await a2a('POST', '/agents/echo/tasks', { input: { message: 'hi', ask: 'And this?' } });
    await vi.waitFor(() => expect(FakeNotification.instances.filter((n) => n.shown)).toHaveLength(1), { timeout: 10_000 });
    expect(FakeNotification.instances[0]!.options.body).toBe('And this?');
  });

  it('pauses and resumes intake from the tray', async () => {
    const { a2a, tray } = await startShell();
    tray().click('Pause intake');
    const refused = await a2a('POST', '/agents/echo/tasks', { input: { message: 'hi' } });
    expect(refused.status).toBe(503);
    expect((refused.body as unknown as { error: { code: string } }).error.code).toBe('INTAKE_PAUSED');
    expect(tray().tooltip).toContain('intake paused');
    tray().click('Resume intake');
    expect((await a2a('POST', '/agents/echo/tasks', { input: { message: 'hi' } })).status).toBe(202);
  });

  it('start at login is off until clicked, then writes the autostart entry; clicking again removes it', async () => {
    const { tray, xdg } = await startShell();
    const entry = join(xdg, 'autostart', 'agent-host.desktop');
    const item = () => tray().menu.find((m) => m.label === 'Start at login')!;
    expect(item().checked).toBe(false);
    const { existsSync, readFileSync } = await import('node:fs');
    expect(existsSync(entry)).toBe(false);
    tray().click('Start at login');
    expect(item().checked).toBe(true);
    expect(readFileSync(entry, 'utf8')).toContain('Exec="/opt/Agent Host/agent-host" --hidden');
    tray().click('Start at login');
    expect(item().checked).toBe(false);
    expect(existsSync(entry)).toBe(false);
  });

  it('answers IPC only from its own window and page, with valid arguments', async () => {
    const { fake, window, shell } = await startShell();
    const own = { contentsId: window().webContents.id, frameUrl: `${shell.host.controlUrl}/#/inbox` };
    const info = (await fake.invoke(DesktopChannel.getInfo, own)) as Record<string, unknown>;
    expect(info).toMatchObject({ control_url: shell.host.controlUrl, platform: 'linux' });
    expect(info['a2a_url']).toBe(shell.host.url);
    await expect(fake.invoke(DesktopChannel.getInfo, { ...own, contentsId: own.contentsId + 1000 })).rejects.toThrow(/not the Agent Host window/);
    await expect(fake.invoke(DesktopChannel.getInfo, { ...own, frameUrl: 'https://evil.example/' })).rejects.toThrow(/not Agent Host's own/);
    await expect(fake.invoke(DesktopChannel.getInfo, { ...own, subframe: true })).rejects.toThrow(/top frame/);
    await expect(fake.invoke(DesktopChannel.revealArtifact, own, '../../etc/passwd')).rejects.toThrow(/artifact id/);
    await expect(fake.invoke(DesktopChannel.setLoginItem, own, 'yes')).rejects.toThrow(/true or false/);
    await expect(fake.invoke(DesktopChannel.getInfo, own, 'extra')).rejects.toThrow(/takes 0 arguments/);
    expect(await fake.invoke(DesktopChannel.getLoginItem, own)).toEqual({ supported: true, enabled: false });
    expect(fake.shellCalls).toEqual([]);
  });

  it('shows the page\'s notification; its click brings the window up on that task', async () => {
    const { fake, window, shell } = await startShell();
    const own = { contentsId: window().webContents.id, frameUrl: `${shell.host.controlUrl}/` };
    const taskId = '3f1c2a9e-5b7d-4c1e-9f0a-1b2c3d4e5f60';
    await fake.invoke(DesktopChannel.showNotification, own, { title: 'Echo finished', body: '<b>done</b>', task_id: taskId });
    const [notification] = FakeNotification.instances;
    expect(notification!.options).toMatchObject({ title: 'Echo finished', body: '&lt;b&gt;done&lt;/b&gt;' });
    expect(notification!.shown).toBe(true);
    window().hide();
    notification!.emit('click');
    expect(window().visible).toBe(true);
    await vi.waitFor(() => expect(window().loaded.at(-1)?.split("#")[1]).toBe(`/tasks/${taskId}`));
    await expect(fake.invoke(DesktopChannel.showNotification, { ...own, frameUrl: 'https://evil.example/' }, { title: 'x', body: '' })).rejects.toThrow(
      /not Agent Host's own/,
    );
    expect(FakeNotification.instances).toHaveLength(1);
  });

  it('reveals and opens a real artifact file, and refuses one that would run', async () => {
    const { fake, window, shell, a2a } = await startShell();
    const own = { contentsId: window().webContents.id, frameUrl: `${shell.host.controlUrl}/` };
    const created = await a2a('POST', '/agents/echo/tasks', {
      input: {
        message: 'files',
        artifacts: [
          { type: 'file', filename: 'report.txt', content: 'hello' },
          { type: 'file', filename: 'run.sh', content: 'echo pwned' },
        ],
      },
    });
    const taskId = created.body.task_id;
    await vi.waitFor(() => expect(shell.host.store.getRecord(taskId)?.task.status).toBe('COMPLETED'), { timeout: 10_000 });
    const artifacts = shell.host.store.listArtifacts(taskId);
    const report = artifacts.find((a) => a.artifact.metadata.filename === 'report.txt')!;
    const script = artifacts.find((a) => a.artifact.metadata.filename === 'run.sh')!;
    await fake.invoke(DesktopChannel.revealArtifact, own, report.artifact.artifact_id);
    await fake.invoke(DesktopChannel.openArtifact, own, report.artifact.artifact_id);
    expect(fake.shellCalls.map((c) => c.method)).toEqual(['showItemInFolder', 'openPath']);
    for (const call of fake.shellCalls) expect(call.arg.startsWith(join(shell.host.layout.artifacts, taskId))).toBe(true);
    await expect(fake.invoke(DesktopChannel.openArtifact, own, script.artifact.artifact_id)).rejects.toThrow(/would run as programs/);
    await expect(fake.invoke(DesktopChannel.revealArtifact, own, '00000000-0000-4000-8000-000000000000')).rejects.toThrow(/does not exist/);
    expect(fake.shellCalls).toHaveLength(2);
  });

  it('guards every web contents: no navigation away, no new windows, only our servers open in the browser', async () => {
    const { fake, shell } = await startShell();
    const { FakeWebContents } = await import('../../support/fake-electron.js');
    const contents = new FakeWebContents();
    fake.app.emit('web-contents-created', {}, contents);
    const away = preventable('https://evil.example/');
    contents.emit('will-navigate', away);
    expect(away.defaultPrevented).toBe(true);
    const inside = preventable(`${shell.host.controlUrl}/#/tasks`);
    contents.emit('will-navigate', inside);
    expect(inside.defaultPrevented).toBe(false);
    const redirect = preventable('file:///etc/passwd');
    contents.emit('will-redirect', redirect);
    expect(redirect.defaultPrevented).toBe(true);
    const webview = preventable();
    contents.emit('will-attach-webview', webview);
    expect(webview.defaultPrevented).toBe(true);
    expect(contents.windowOpenHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: `${shell.host.url}/agents/echo/agent-card.json` })).toEqual({ action: 'deny' });
    expect(fake.shellCalls).toEqual([{ method: 'openExternal', arg: `${shell.host.url}/agents/echo/agent-card.json` }]);
    const decide = (permission: string, url: string) =>
      new Promise<boolean>((resolve) => fake.permissionRequest!(contents, permission, resolve, { requestingUrl: url }));
    expect(await decide('media', `${shell.host.controlUrl}/`)).toBe(false);
    expect(await decide('notifications', `${shell.host.controlUrl}/`)).toBe(false);
    expect(await decide('clipboard-sanitized-write', `${shell.host.controlUrl}/`)).toBe(true);
    expect(await decide('clipboard-sanitized-write', 'https://evil.example/')).toBe(false);
    expect(fake.permissionCheck!(contents, 'geolocation', shell.host.controlUrl)).toBe(false);
  });

  it('quits in order: tray says so, IPC and window go, the host closes (tasks, DB), then the tray; exit 0', async () => {
    const { fake, shell, tray, a2a, window } = await startShell();
    const running = await a2a('POST', '/agents/echo/tasks', { input: { message: 'slow', delay_ms: 60_000 } });
    await vi.waitFor(() => expect(shell.host.store.getRecord(running.body.task_id)?.task.status).toBe('WORKING'), { timeout: 10_000 });
    const a2aUrl = shell.host.url;
    const controlUrl = shell.host.controlUrl;
    tray().click('Quit Agent Host');
    expect(menuLabels(tray())).toEqual(['Stopping Agent Host…']);
    const code = await fake.app.exited;
    expect(code).toBe(0);
    const report = await shell.quit();
    expect(report).toEqual({
      completed: ['announce', 'stop-notifications', 'stop-ipc', 'close-window', 'close-host', 'remove-tray'],
      failed: [],
    });
    expect(fake.handlers.size).toBe(0);
    expect(window().destroyed).toBe(true);
    expect(tray().destroyed).toBe(true);
    expect(shell.host.db.open).toBe(false);
    // The running task saw the cancel within the grace period and was recorded before the DB closed.
    const { openDatabase } = await import('../../../build/main/core/store/database.js');
    const db = openDatabase(shell.host.layout.database);
    const row = db.prepare('SELECT status FROM tasks WHERE task_id = ?').get(running.body.task_id) as { status: string };
    db.close();
    expect(['CANCELED', 'FAILED']).toContain(row.status);
    await expect(fetch(`${a2aUrl}/agents`)).rejects.toThrow();
    await expect(fetch(`${controlUrl}/api/session`)).rejects.toThrow();
  });
});

describe('desktop shell start-up failures', () => {
  async function failedStart(argv: string[], configure?: (dataDir: string) => void) {
    const temp = makeTempDir('agent-host-shell-fail-');
    cleanups.push(() => temp.cleanup());
    const dataDir = join(temp.dir, 'data');
    mkdirSync(dataDir, { recursive: true });
    configure?.(dataDir);
    const fake = fakeElectron();
    const shell = await runShell(fake.electron, shellPaths(APP_ROOT), {
      argv: ['--data-dir', dataDir, '--control-port', '0', ...argv],
      platform: 'linux',
      env: {},
      launchCommand: ['agent-host'],
      nativeBinding: () => undefined,
      logger: createLogger('silent'),
    });
    expect(shell).toBeUndefined();
    expect(FakeBrowserWindow.instances).toHaveLength(0);
    expect(FakeTray.instances).toHaveLength(0);
    return { fake, dataDir };
  }

  it('port already in use: a clear dialog, exit 1, no window', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const port = (blocker.address() as { port: number }).port;
    const { fake, dataDir } = await failedStart(['--port', String(port)]);
    expect(fake.dialogs).toHaveLength(1);
    expect(fake.dialogs[0]).toMatchObject({ type: 'error', title: 'Port already in use', buttons: ['Quit', 'Show data folder'] });
    expect(String(fake.dialogs[0]!['detail'])).toContain(`127.0.0.1:${port} is already in use`);
    expect(fake.app.exitCode).toBe(1);
    expect(dataDir).toBeTruthy();
  });

  it('a database from a newer version: a dialog, and the file is left as it was', async () => {
    const { openDatabase } = await import('../../../build/main/core/store/database.js');
    const { readFileSync } = await import('node:fs');
    let before: Buffer | undefined;
    const { fake } = await failedStart(['--port', '0'], (dataDir) => {
      const db = openDatabase(join(dataDir, 'agent-host.db'));
      db.pragma('user_version = 999');
      db.pragma('journal_mode = DELETE');
      db.close();
      before = readFileSync(join(dataDir, 'agent-host.db'));
    });
    expect(fake.dialogs[0]).toMatchObject({ title: 'Data from a newer version' });
    expect(String(fake.dialogs[0]!['detail'])).toContain('schema version 999');
    expect(fake.app.exitCode).toBe(1);
    expect(before).toBeDefined();
  });

  it('a data folder that cannot be written: a dialog naming it', async () => {
    const { fake } = await failedStart(['--port', '0'], (dataDir) => {
      // A file where the artifacts folder must be: fails for root too, unlike permission bits.
      writeFileSync(join(dataDir, 'artifacts'), 'not a folder');
    });
    expect(fake.dialogs[0]).toMatchObject({ title: 'Data folder not writable' });
    expect(String(fake.dialogs[0]!['detail'])).toContain('artifacts');
    expect(fake.app.exitCode).toBe(1);
  });

  it('a bad command line: a dialog, exit 2', async () => {
    const { fake } = await failedStart(['--port', 'seventy']);
    expect(fake.dialogs[0]).toMatchObject({ title: 'Bad command line' });
    expect(String(fake.dialogs[0]!['detail'])).toContain('--port must be a number');
    expect(fake.app.exitCode).toBe(2);
  });

  it('a second instance hands over to the first and starts nothing', async () => {
    const temp = makeTempDir('agent-host-shell-second-');
    cleanups.push(() => temp.cleanup());
    const fake = fakeElectron();
    fake.app.lockAvailable = false;
    const shell = await runShell(fake.electron, shellPaths(APP_ROOT), {
      argv: ['--data-dir', temp.dir],
      platform: 'linux',
      env: {},
      launchCommand: ['agent-host'],
      nativeBinding: () => {
        throw new Error('must not be reached');
      },
      logger: createLogger('silent'),
    });
    expect(shell).toBeUndefined();
    expect(fake.app.quitCalls).toBe(1);
    expect(fake.dialogs).toHaveLength(0);
  });
});
