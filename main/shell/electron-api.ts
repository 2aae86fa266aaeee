import type * as Electron from 'electron';

/**
 * The part of Electron the shell uses, as types only. electron-main.ts passes the real module;
 * tests pass a recording stand-in, because Electron's binary cannot run on every machine the
 * tests do. Picking from Electron's own declarations keeps both honest about the signatures.
 */
export interface ShellElectron {
  app: Pick<
    Electron.App,
    | 'requestSingleInstanceLock'
    | 'whenReady'
    | 'on'
    | 'quit'
    | 'exit'
    | 'setPath'
    | 'getLoginItemSettings'
    | 'setLoginItemSettings'
    | 'setBadgeCount'
  >;
  BrowserWindow: new (options: Electron.BrowserWindowConstructorOptions) => ShellBrowserWindow;
  Tray: new (image: Electron.NativeImage) => ShellTray;
  Menu: Pick<typeof Electron.Menu, 'buildFromTemplate'>;
  nativeImage: Pick<typeof Electron.nativeImage, 'createFromPath'>;
  Notification: (new (options: Electron.NotificationConstructorOptions) => ShellNotification) & { isSupported(): boolean };
  ipcMain: Pick<Electron.IpcMain, 'handle' | 'removeHandler'>;
  shell: Pick<Electron.Shell, 'showItemInFolder' | 'openPath' | 'openExternal'>;
  dialog: Pick<Electron.Dialog, 'showMessageBox'>;
  session: { defaultSession: Pick<Electron.Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'> };
}

export type ShellWebContents = Pick<
  Electron.WebContents,
  'id' | 'send' | 'on' | 'setWindowOpenHandler' | 'isDestroyed' | 'getURL'
>;

export type ShellBrowserWindow = Pick<
  Electron.BrowserWindow,
  'loadURL' | 'show' | 'hide' | 'focus' | 'restore' | 'isMinimized' | 'isVisible' | 'isFocused' | 'isDestroyed' | 'destroy' | 'on'
> & { webContents: ShellWebContents };

export type ShellTray = Pick<Electron.Tray, 'setContextMenu' | 'setToolTip' | 'setImage' | 'setTitle' | 'on' | 'destroy' | 'isDestroyed'>;

export type ShellNotification = Pick<Electron.Notification, 'show' | 'close' | 'on'>;
