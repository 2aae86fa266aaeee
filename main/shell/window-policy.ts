import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';

/**
 * The main window's security settings and guards, as plain data and pure decisions so they are
 * tested without Electron's binary (Electron's security checklist, item by item in the README).
 */

/** The renderer is a web page of the control API: no Node, isolated and sandboxed like any site. */
export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
  };
}

export function mainWindowOptions(preloadPath: string, iconPath: string | undefined): BrowserWindowConstructorOptions {
  return {
    width: 1200,
    height: 780,
    minWidth: 720,
    minHeight: 480,
    title: 'Agent Host',
    // Shown on 'ready-to-show', so the window never flashes white before the page paints.
    show: false,
    backgroundColor: '#14161a',
    autoHideMenuBar: true,
    ...(iconPath ? { icon: iconPath } : {}),
    webPreferences: secureWebPreferences(preloadPath),
  };
}

/** `scheme://host:port` of a URL, or undefined when it does not parse. */
export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? undefined : parsed.origin;
  } catch {
    return undefined;
  }
}

/** The window may only ever show the control API's own pages (hash routes included). */
export function isAppUrl(url: string, controlOrigin: string): boolean {
  return originOf(url) === controlOrigin;
}

/**
 * A link or `window.open` the page asks for: never a new Electron window. Our own servers' plain
 * http(s) pages (an agent card on the A2A server, say) open in the person's browser; anything
 * else — other sites, file:, javascript:, custom schemes — is refused, so a URL that came from a
 * task's data can never launch a program through `openExternal`.
 */
export type WindowOpenDecision = { action: 'deny'; openExternally?: string };

export function windowOpenDecision(url: string, trustedOrigins: readonly string[]): WindowOpenDecision {
  const origin = originOf(url);
  if (origin && /^https?:$/.test(new URL(url).protocol) && trustedOrigins.includes(origin)) {
    return { action: 'deny', openExternally: url };
  }
  return { action: 'deny' };
}

/** `will-navigate` / `will-redirect`: allowed only within the app's origin. */
export function navigationAllowed(url: string, controlOrigin: string): boolean {
  return isAppUrl(url, controlOrigin);
}

/**
 * Permission requests (camera, geolocation, notifications, …) are denied by default. The one
 * exception is writing text to the clipboard from our own page (the UI's copy buttons).
 */
export function permissionAllowed(permission: string, requestingUrl: string, controlOrigin: string): boolean {
  return permission === 'clipboard-sanitized-write' && isAppUrl(requestingUrl, controlOrigin);
}
