/**
 * The Electron main process's entry: hands the real Electron module to the shell. Everything the
 * shell does lives in the modules beside this one, so it is tested under plain Node too.
 */
import * as electron from 'electron';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronNativeBinding } from './native-binding.js';
import { runShell, shellPaths } from './shell-app.js';

const appRoot = fileURLToPath(new URL('../../../', import.meta.url));
const entryScript = fileURLToPath(import.meta.url);
const { app } = electron;
// Packaged, argv is [app, ...args]; unpackaged, [electron, (switches,) entry script, ...args].
const scriptIndex = process.argv.findIndex((arg, index) => index > 0 && resolve(arg) === entryScript);
const argv = process.argv.slice(app.isPackaged || scriptIndex < 0 ? 1 : scriptIndex + 1);
const launchCommand = app.isPackaged
  ? [process.env['APPIMAGE'] ?? process.execPath]
  : [process.execPath, entryScript];

const running = runShell(electron, shellPaths(appRoot), {
  argv,
  platform: process.platform,
  env: process.env,
  launchCommand,
  nativeBinding: () =>
    electronNativeBinding(appRoot, { electronVersion: process.versions.electron ?? '', platform: process.platform, arch: process.arch }),
});

if (process.env['AGENT_HOST_E2E'] === '1') {
  // Playwright's Electron tests read the tray's state through the main process's global (never
  // reachable from the sandboxed page); set only by those tests.
  void running.then((shell) => {
    (globalThis as { agentHostShell?: unknown }).agentHostShell = shell && {
      a2aUrl: shell.host.url,
      controlUrl: shell.host.controlUrl,
      trayModel: () => shell.tray.model,
    };
  });
}

// A terminal's Ctrl+C or a service manager's SIGTERM quits the same ordered way as the menu.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void running.then(async (shell) => {
      if (shell) await shell.quit();
      else app.exit(0);
    });
  });
}
running.catch((err: unknown) => {
  process.stderr.write(`agent-host: the desktop shell failed: ${(err as Error).stack ?? String(err)}\n`);
  app.exit(1);
});
