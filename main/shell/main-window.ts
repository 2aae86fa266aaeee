import { DesktopChannel } from '../shared/desktop-bridge.js';
import type { ShellBrowserWindow, ShellElectron } from './electron-api.js';
import { mainWindowOptions } from './window-policy.js';

export interface MainWindowOptions {
  /** `http://127.0.0.1:PORT` of the control API, which serves the UI. */
  controlUrl: string;
  /** A fresh one-time token with the desktop grant, for each page load. */
  mintToken: () => string;
  preloadPath: string;
  iconPath?: string;
  /** True once the app is quitting: closing the window then really closes it. */
  isQuitting: () => boolean;
  log: (message: string, detail?: Record<string, unknown>) => void;
}

/**
 * The one window, on the control API's UI. Closing it only hides it (the app lives on in the
 * tray); it is created on first show and loaded with a fresh one-time token, so no session
 * secret is ever kept in the shell.
 */
export class MainWindow {
  private window: ShellBrowserWindow | undefined;
  private loaded = false;

  constructor(
    private readonly electron: Pick<ShellElectron, 'BrowserWindow'>,
    private readonly options: MainWindowOptions,
  ) {}

  /** The window's webContents id, for the IPC sender check (undefined while there is no window). */
  contentsId(): number | undefined {
    return this.window && !this.window.isDestroyed() ? this.window.webContents.id : undefined;
  }

  isFocused(): boolean {
    return !!this.window && !this.window.isDestroyed() && this.window.isVisible() && this.window.isFocused();
  }

  /** In front and on the Inbox, where a new prompt appears by itself. */
  isShowingInbox(): boolean {
    return this.isFocused() && /#\/inbox(?:\/|$)/.test(this.window!.webContents.getURL());
  }

  /** Shows (creating if needed) and focuses the window; `hash` is a UI route like `#/inbox`. */
  show(hash?: string): void {
    const existing = this.window !== undefined && !this.window.isDestroyed();
    const window = this.ensureWindow(hash);
    // A route for a window that exists (loaded, or still loading its first page): load it anew.
    if (hash && existing) this.load(window, hash);
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  }

  /** Brings up task `taskId`'s prompt: in the open page when loaded, else as the first route. */
  openPrompt(taskId: string): void {
    const hash = `#/inbox/${encodeURIComponent(taskId)}`;
    if (this.window && !this.window.isDestroyed() && this.loaded) {
      this.window.webContents.send(DesktopChannel.openPrompt, taskId);
      this.show();
    } else {
      this.show(hash);
    }
  }

  destroy(): void {
    if (this.window && !this.window.isDestroyed()) this.window.destroy();
    this.window = undefined;
  }

  /** Loads the UI at `hash` with a fresh one-time token (a superseded load's failure is only logged). */
  private load(window: ShellBrowserWindow, hash: string): void {
    this.loaded = false;
    window.loadURL(`${this.options.controlUrl}/?token=${this.options.mintToken()}${hash}`).catch((err: unknown) => {
      this.options.log('window failed to load', { error: (err as Error).message });
    });
  }

  private ensureWindow(hash: string | undefined): ShellBrowserWindow {
    if (this.window && !this.window.isDestroyed()) return this.window;
    const window = new this.electron.BrowserWindow(mainWindowOptions(this.options.preloadPath, this.options.iconPath));
    this.window = window;
    this.loaded = false;
    window.on('close', (event) => {
      if (this.options.isQuitting()) return;
      event.preventDefault();
      window.hide();
    });
    window.on('closed', () => {
      if (this.window === window) this.window = undefined;
    });
    window.webContents.on('did-finish-load', () => {
      this.loaded = true;
    });
    window.webContents.on('render-process-gone', (_event, details) => {
      // The page crashed or was killed: load it again (with a new token) rather than leave a blank window.
      this.options.log('window renderer gone; reloading', { reason: details.reason });
      this.loaded = false;
      if (details.reason !== 'clean-exit' && !this.options.isQuitting()) this.load(window, '#/inbox');
    });
    this.load(window, hash ?? '#/inbox');
    return window;
  }
}
