import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { appVersion } from '../core/app-version.js';
import { defaultDataDir } from '../core/config/data-dir.js';
import { reachableUrl } from '../core/control/control-listener.js';
import { startHost, type RunningHost } from '../core/host.js';
import { createLogger, type Logger } from '../core/logger.js';
import type { DesktopInfo } from '../shared/desktop-bridge.js';
import { ArtifactActionError, artifactFileFor } from './artifact-actions.js';
import type { ShellElectron } from './electron-api.js';
import { registerIpcHandlers } from './ipc-handlers.js';
import { loginItemController, type LoginItemController } from './login-item.js';
import { MainWindow } from './main-window.js';
import { PromptNotifier } from './prompt-notifier.js';
import { denyPermissions, guardWebContents } from './security.js';
import { parseShellArgs, type ShellCommand } from './shell-args.js';
import { ShutdownSequence, type ShutdownReport } from './shutdown.js';
import { describeStartupFailure } from './startup-failure.js';
import { AppTray } from './tray.js';
import { MAX_MENU_PROMPTS, type TrayAction, type TrayState } from './tray-model.js';

/** What closing the host may take beyond the tasks' grace period before quitting goes on without it. */
const HOST_CLOSE_MARGIN_MS = 10_000;

/** Where the shell's own files are: the app root (the repo, or app.asar when packaged). */
export interface ShellPaths {
  preload: string;
  /** assets/tray: the tray PNGs. */
  trayIconDir: string;
  /** The window and notification icon. */
  appIcon: string;
}

export interface ShellRuntime {
  /** The app's own arguments (after the executable and, unpackaged, the entry script). */
  argv: readonly string[];
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** The program and arguments that start this app again (Linux start-at-login runs them). */
  launchCommand: readonly string[];
  /** better-sqlite3's binary for this runtime (undefined: the one in node_modules). May throw NativeBindingMissingError. */
  nativeBinding: () => string | undefined;
  logger?: Logger;
}

export interface RunningShell {
  host: RunningHost;
  window: MainWindow;
  tray: AppTray;
  loginItem: LoginItemController;
  /** Quits in order (see ShutdownSequence) and exits; what each step did. */
  quit(): Promise<ShutdownReport>;
}

/**
 * The desktop app: starts the host core in this (Electron main) process and wires the native
 * parts to it — window, tray, notifications, IPC, start at login — then waits for quit. Resolves
 * undefined when this process is not the one to run (a second instance, or start-up failed and
 * the person was told why).
 */
export async function runShell(electron: ShellElectron, paths: ShellPaths, runtime: ShellRuntime): Promise<RunningShell | undefined> {
  const { app } = electron;
  let command: ShellCommand | undefined;
  let argsError: unknown;
  try {
    command = parseShellArgs(runtime.argv);
  } catch (err) {
    argsError = err;
  }
  const dataDir = command?.host.dataDir ?? defaultDataDir(runtime.platform, runtime.env);
  const logger = runtime.logger ?? desktopLogger(command?.host.logLevel ?? 'info', dataDir);
  const log = (message: string, detail: Record<string, unknown> = {}): void => logger.info(detail, message);

  // Chromium's own files go with ours, and the single-instance lock is per data folder.
  try {
    mkdirSync(dataDir, { recursive: true });
    app.setPath('userData', dataDir);
  } catch {
    // An unusable folder is reported by the host's own check below, in a dialog.
  }
  if (!app.requestSingleInstanceLock()) {
    log('Agent Host is already running with this data folder; showing its window');
    app.quit();
    return undefined;
  }
  await app.whenReady();

  const failStart = async (err: unknown): Promise<undefined> => {
    const failure = describeStartupFailure(err, dataDir);
    logger.error({ kind: failure.kind, error: (err as Error).message }, 'start-up failed');
    const buttons = failure.revealPath ? ['Quit', 'Show data folder'] : ['Quit'];
    const answer = await electron.dialog.showMessageBox({
      type: 'error',
      title: failure.title,
      message: failure.message,
      detail: failure.detail,
      buttons,
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    });
    if (answer.response === 1 && failure.revealPath) await electron.shell.openPath(failure.revealPath);
    app.exit(failure.kind === 'usage' ? 2 : 1);
    return undefined;
  };
  if (!command) return failStart(argsError);
  if (command.ignored.length > 0) log('arguments left to Chromium', { ignored: command.ignored });

  // Known once the host listens; until then every navigation and permission is refused.
  const origins: { control?: string; trusted: string[] } = { trusted: [] };
  denyPermissions(electron, { controlOrigin: () => origins.control, log });
  app.on('web-contents-created', (_event, contents) =>
    guardWebContents(contents, electron, { controlOrigin: () => origins.control, trustedOrigins: () => origins.trusted, log }),
  );
  // Closing the window hides it; the app keeps running in the tray until Quit.
  app.on('window-all-closed', () => undefined);

  let host: RunningHost;
  try {
    const nativeBinding = runtime.nativeBinding();
    const overrides = {
      ...(command.host.host !== undefined ? { host: command.host.host } : {}),
      ...(command.host.port !== undefined ? { port: command.host.port } : {}),
      ...(command.host.controlPort !== undefined ? { controlPort: command.host.controlPort } : {}),
    };
    host = await startHost({ dataDir, pluginDirs: command.host.plugins, overrides, logger, ...(nativeBinding ? { nativeBinding } : {}) });
  } catch (err) {
    return failStart(err);
  }
  const controlOrigin = new URL(host.controlUrl).origin;
  const a2aUrl = reachableUrl(host.config.server.host, host.port);
  origins.control = controlOrigin;
  origins.trusted = [controlOrigin, new URL(a2aUrl).origin];

  let quitting = false;
  const window = new MainWindow(electron, {
    controlUrl: host.controlUrl,
    mintToken: () => host.mintSessionToken({ desktop: true }),
    preloadPath: paths.preload,
    iconPath: paths.appIcon,
    isQuitting: () => quitting,
    log,
  });
  const loginItem = loginItemController(app, { platform: runtime.platform, env: runtime.env, launchCommand: runtime.launchCommand });

  const trayState = (): TrayState => {
    const waiting = host.prompts.waiting(MAX_MENU_PROMPTS);
    const login = loginItem.get();
    return {
      prompts: waiting.prompts,
      total: waiting.total,
      intakePaused: host.intake.state().paused,
      startAtLogin: login.supported ? login.enabled : undefined,
      quitting,
    };
  };
  const onTrayAction = (action: TrayAction): void => {
    try {
      switch (action.kind) {
        case 'open-window':
          return window.show();
        case 'open-inbox':
          return window.show('#/inbox');
        case 'open-prompt':
          return window.openPrompt(action.taskId);
        case 'set-intake-paused':
          host.intake.setPaused(action.paused);
          return tray.refresh();
        case 'set-start-at-login':
          loginItem.set(action.enabled);
          return tray.refresh();
        case 'quit':
          return app.quit();
      }
    } catch (err) {
      logger.error({ action: action.kind, error: (err as Error).message }, 'tray action failed');
      void electron.dialog.showMessageBox({ type: 'error', title: 'Agent Host', message: 'That did not work.', detail: (err as Error).message });
    }
  };
  const tray = new AppTray(electron, { iconDir: paths.trayIconDir, platform: runtime.platform, state: trayState, onAction: onTrayAction });
  const stopPromptWatch = host.prompts.on(() => tray.scheduleRefresh());
  const stopIntakeWatch = host.intake.onChange(() => tray.scheduleRefresh());

  const notifier = new PromptNotifier(electron, {
    feed: host.prompts,
    promptsInView: () => window.isShowingInbox(),
    onOpenPrompt: (taskId) => window.openPrompt(taskId),
    onOpenInbox: () => window.show('#/inbox'),
    iconPath: paths.appIcon,
    platform: runtime.platform,
  });
  notifier.start();

  const info = (): DesktopInfo => ({
    control_url: host.controlUrl,
    a2a_url: a2aUrl,
    version: appVersion(),
    platform: runtime.platform === 'darwin' || runtime.platform === 'win32' || runtime.platform === 'linux' ? runtime.platform : 'other',
  });
  const removeIpcHandlers = registerIpcHandlers(electron.ipcMain, {
    windowContentsId: () => window.contentsId(),
    controlOrigin,
    info,
    revealArtifact: async (artifactId) => {
      electron.shell.showItemInFolder(await artifactFileFor(host.store, host.layout.artifacts, artifactId, false, runtime.platform));
    },
    openArtifact: async (artifactId) => {
      const problem = await electron.shell.openPath(await artifactFileFor(host.store, host.layout.artifacts, artifactId, true, runtime.platform));
      if (problem) throw new ArtifactActionError('OPEN_FAILED', problem);
    },
    showNotification: (notification) => {
      const taskId = notification.task_id;
      notifier.showFromPage(taskId ?? notification.title, notification, () =>
        window.show(taskId === undefined ? undefined : `#/tasks/${encodeURIComponent(taskId)}`),
      );
    },
    getLoginItem: () => loginItem.get(),
    setLoginItem: (enabled) => {
      const state = loginItem.set(enabled);
      tray.refresh();
      return state;
    },
    log,
  });

  const shutdown = new ShutdownSequence(
    [
      {
        name: 'announce',
        run: () => {
          quitting = true;
          tray.refresh();
        },
      },
      { name: 'stop-notifications', run: () => notifier.stop() },
      {
        name: 'stop-ipc',
        run: () => {
          removeIpcHandlers();
          stopPromptWatch();
          stopIntakeWatch();
        },
      },
      { name: 'close-window', run: () => window.destroy() },
      // Stops intake, lets running tasks finish or see cancel within the grace period, flushes
      // due webhook deliveries, closes the database (RunningHost.close, in that order).
      {
        name: 'close-host',
        run: () => host.close(),
        // The grace period, plus time for the servers and the database: then quit regardless.
        timeoutMs: host.config.runtime.shutdown_grace_ms + HOST_CLOSE_MARGIN_MS,
        describeWait: () => host.pendingClose().join(', '),
      },
      { name: 'remove-tray', run: () => tray.destroy() },
    ],
    log,
  );
  let exiting = false;
  const quit = async (): Promise<ShutdownReport> => {
    const report = await shutdown.run();
    if (!exiting) {
      exiting = true;
      app.exit(report.failed.length > 0 ? 1 : 0);
    }
    return report;
  };
  app.on('before-quit', (event) => {
    if (exiting) return;
    // Electron would close everything at once; the host needs its ordered shutdown first.
    event.preventDefault();
    void quit();
  });
  app.on('second-instance', () => window.show());
  app.on('activate', () => window.show());

  if (!command.hidden) window.show();
  log('Agent Host desktop started', { a2a: host.url, control: host.controlUrl, dataDir: host.layout.root });
  return { host, window, tray, loginItem, quit };
}

/** stderr, and `logs/agent-host.log` in the data folder (a tray app has no terminal to read). */
function desktopLogger(level: Parameters<typeof createLogger>[0], dataDir: string): Logger {
  try {
    return createLogger(level, { file: join(dataDir, 'logs', 'agent-host.log') });
  } catch {
    // A data folder that cannot be written is reported in a dialog; logging goes to stderr only.
    return createLogger(level);
  }
}

/** The shell's files, relative to the app root (the repository, or app.asar when packaged). */
export function shellPaths(appRoot: string): ShellPaths {
  return {
    preload: join(appRoot, 'build', 'preload', 'preload.cjs'),
    trayIconDir: join(appRoot, 'assets', 'tray'),
    appIcon: join(appRoot, 'assets', 'icon.png'),
  };
}
