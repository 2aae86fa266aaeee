/**
 * A recording stand-in for the parts of Electron the shell uses. Electron's binary cannot be
 * downloaded on this machine (and on many CI machines), so the shell's wiring — window, tray,
 * notifications, IPC, quit order — is driven here under plain Node against a real host; the same
 * code runs against real Electron in test/e2e/electron-app.test.ts wherever the binary exists.
 * Only Electron is replaced: the host, its servers, SQLite and the workers are real.
 */
import { EventEmitter } from 'node:events';
import type { ShellElectron } from '../../build/main/shell/electron-api.js';

export interface PreventableEvent {
  defaultPrevented: boolean;
  preventDefault(): void;
  url: string;
}

export function preventable(url = ''): PreventableEvent {
  return {
    url,
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
}

let nextContentsId = 1;

export class FakeWebContents extends EventEmitter {
  readonly id = nextContentsId++;
  readonly sent: { channel: string; args: unknown[] }[] = [];
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined;
  url = '';
  destroyed = false;
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  getURL(): string {
    return this.url;
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static instances: FakeBrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  readonly loaded: string[] = [];
  visible = false;
  focused = false;
  minimized = false;
  destroyed = false;
  constructor(readonly options: Record<string, unknown>) {
    super();
    FakeBrowserWindow.instances.push(this);
  }
  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    this.webContents.url = url;
    // Like Electron: the page finishes loading after loadURL was called.
    setImmediate(() => this.webContents.emit('did-finish-load'));
  }
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
    this.focused = false;
  }
  focus(): void {
    this.focused = true;
  }
  restore(): void {
    this.minimized = false;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isVisible(): boolean {
    return this.visible;
  }
  isFocused(): boolean {
    return this.focused;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  destroy(): void {
    this.destroyed = true;
    this.webContents.destroyed = true;
    this.emit('closed');
  }
  /** What the person's click on the window's close button does. */
  userClose(): PreventableEvent {
    const event = preventable();
    this.emit('close', event);
    if (!event.defaultPrevented) this.destroy();
    return event;
  }
}

export interface FakeMenuItem {
  label?: string;
  type?: string;
  enabled?: boolean;
  checked?: boolean;
  click?: () => void;
}

export class FakeTray extends EventEmitter {
  static instances: FakeTray[] = [];
  menu: FakeMenuItem[] = [];
  tooltip = '';
  title = '';
  image = '';
  destroyed = false;
  constructor(image: { path: string }) {
    super();
    this.image = image.path;
    FakeTray.instances.push(this);
  }
  setContextMenu(menu: { items: FakeMenuItem[] }): void {
    this.menu = menu.items;
  }
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  setTitle(title: string): void {
    this.title = title;
  }
  setImage(image: { path: string }): void {
    this.image = image.path;
  }
  destroy(): void {
    this.destroyed = true;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** Clicks the menu item whose label starts with `label`. */
  click(label: string): void {
    const item = this.menu.find((entry) => entry.label?.startsWith(label));
    if (!item?.click) throw new Error(`no clickable tray item ${JSON.stringify(label)} in ${JSON.stringify(this.menu.map((m) => m.label))}`);
    item.click();
  }
}

export class FakeNotification extends EventEmitter {
  static instances: FakeNotification[] = [];
  shown = false;
  closed = false;
  constructor(readonly options: { title: string; body: string }) {
    super();
    FakeNotification.instances.push(this);
  }
  static isSupported(): boolean {
    return true;
  }
  show(): void {
    this.shown = true;
  }
  close(): void {
    this.closed = true;
    this.emit('close');
  }
}

type Handler = (event: unknown, ...args: unknown[]) => unknown;

export interface FakeElectron {
  electron: ShellElectron;
  app: FakeApp;
  handlers: Map<string, Handler>;
  dialogs: Record<string, unknown>[];
  /** Answer the next dialogs with these button indexes (default 0). */
  dialogAnswers: number[];
  shellCalls: { method: string; arg: string }[];
  permissionRequest?: (contents: unknown, permission: string, callback: (ok: boolean) => void, details: { requestingUrl?: string }) => void;
  permissionCheck?: (contents: unknown, permission: string, origin: string) => boolean;
  /** Calls an IPC handler as Electron would, from `sender` with a frame at `frameUrl`. */
  invoke(channel: string, from: { contentsId: number; frameUrl: string; subframe?: boolean }, ...args: unknown[]): Promise<unknown>;
}

export class FakeApp extends EventEmitter {
  lockAvailable = true;
  exitCode: number | undefined;
  readonly exited: Promise<number>;
  quitCalls = 0;
  paths: Record<string, string> = {};
  badgeCount = 0;
  loginItem = { openAtLogin: false };
  private resolveExit: (code: number) => void = () => undefined;
  constructor() {
    super();
    this.exited = new Promise((resolve) => (this.resolveExit = resolve));
  }
  requestSingleInstanceLock(): boolean {
    return this.lockAvailable;
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  setPath(name: string, path: string): void {
    this.paths[name] = path;
  }
  getLoginItemSettings(): { openAtLogin: boolean } {
    return { ...this.loginItem };
  }
  setLoginItemSettings(settings: { openAtLogin: boolean }): void {
    this.loginItem.openAtLogin = settings.openAtLogin;
  }
  setBadgeCount(count: number): boolean {
    this.badgeCount = count;
    return true;
  }
  /** Like Electron: 'before-quit' first; quitting goes on only if no listener prevented it. */
  quit(): void {
    this.quitCalls += 1;
    const event = preventable();
    this.emit('before-quit', event);
    if (!event.defaultPrevented) this.exit(0);
  }
  exit(code = 0): void {
    if (this.exitCode !== undefined) return;
    this.exitCode = code;
    this.resolveExit(code);
  }
}

export function fakeElectron(): FakeElectron {
  FakeBrowserWindow.instances = [];
  FakeTray.instances = [];
  FakeNotification.instances = [];
  const app = new FakeApp();
  const handlers = new Map<string, Handler>();
  const fake: FakeElectron = {
    app,
    handlers,
    dialogs: [],
    dialogAnswers: [],
    shellCalls: [],
    electron: undefined as unknown as ShellElectron,
    async invoke(channel, from, ...args) {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`no handler for ${channel}`);
      const event = { sender: { id: from.contentsId }, senderFrame: { url: from.frameUrl, parent: from.subframe ? {} : null } };
      return handler(event, ...args);
    },
  };
  fake.electron = {
    app,
    BrowserWindow: FakeBrowserWindow,
    Tray: FakeTray,
    Menu: { buildFromTemplate: (items: FakeMenuItem[]) => ({ items }) },
    nativeImage: { createFromPath: (path: string) => ({ path }) },
    Notification: FakeNotification,
    ipcMain: {
      handle: (channel: string, handler: Handler) => {
        if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
        handlers.set(channel, handler);
      },
      removeHandler: (channel: string) => handlers.delete(channel),
    },
    shell: {
      showItemInFolder: (path: string) => fake.shellCalls.push({ method: 'showItemInFolder', arg: path }),
      openPath: async (path: string) => {
        fake.shellCalls.push({ method: 'openPath', arg: path });
        return '';
      },
      openExternal: async (url: string) => {
        fake.shellCalls.push({ method: 'openExternal', arg: url });
      },
    },
    dialog: {
      showMessageBox: async (options: Record<string, unknown>) => {
        fake.dialogs.push(options);
        return { response: fake.dialogAnswers.shift() ?? 0, checkboxChecked: false };
      },
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler: FakeElectron['permissionRequest']) => {
          fake.permissionRequest = handler;
        },
        setPermissionCheckHandler: (handler: FakeElectron['permissionCheck']) => {
          fake.permissionCheck = handler;
        },
      },
    },
  } as unknown as ShellElectron;
  return fake;
}
