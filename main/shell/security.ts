import type { WebContents } from 'electron';
import type { ShellElectron } from './electron-api.js';
import { navigationAllowed, permissionAllowed, windowOpenDecision } from './window-policy.js';

export interface SecurityOptions {
  /** The control API's origin: the only one the window may show. */
  controlOrigin: () => string | undefined;
  /** Our own servers' origins, whose pages may open in the person's browser. */
  trustedOrigins: () => readonly string[];
  log: (message: string, detail?: Record<string, unknown>) => void;
}

export type GuardedContents = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

/**
 * Guards every web contents the app ever creates (Electron's checklist: no navigation away, no
 * new windows, no <webview>; links to our own servers go to the system browser, nothing else).
 */
export function guardWebContents(contents: GuardedContents, electron: Pick<ShellElectron, 'shell'>, options: SecurityOptions): void {
  const refuseNavigation = (event: { url: string; preventDefault(): void }): void => {
    const origin = options.controlOrigin();
    if (origin && navigationAllowed(event.url, origin)) return;
    event.preventDefault();
    options.log('navigation refused', { url: event.url });
  };
  contents.on('will-navigate', refuseNavigation);
  contents.on('will-redirect', refuseNavigation);
  contents.on('will-frame-navigate', refuseNavigation);
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    options.log('webview refused');
  });
  contents.setWindowOpenHandler(({ url }) => {
    const decision = windowOpenDecision(url, options.trustedOrigins());
    if (decision.openExternally) {
      void electron.shell.openExternal(decision.openExternally).catch((err: unknown) => {
        options.log('could not open link in the browser', { url, error: (err as Error).message });
      });
    } else {
      options.log('new window refused', { url });
    }
    return { action: 'deny' };
  });
}

/** Every permission request and check is denied, except our page's clipboard writes. */
export function denyPermissions(electron: Pick<ShellElectron, 'session'>, options: Pick<SecurityOptions, 'controlOrigin' | 'log'>): void {
  const allowed = (permission: string, url: string): boolean => {
    const origin = options.controlOrigin();
    return !!origin && permissionAllowed(permission, url, origin);
  };
  electron.session.defaultSession.setPermissionRequestHandler((contents, permission, callback, details) => {
    const ok = allowed(permission, details.requestingUrl ?? contents.getURL());
    if (!ok) options.log('permission refused', { permission });
    callback(ok);
  });
  electron.session.defaultSession.setPermissionCheckHandler((_contents, permission, requestingOrigin) => allowed(permission, requestingOrigin));
}
