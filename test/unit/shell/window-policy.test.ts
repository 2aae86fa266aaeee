import { describe, expect, it } from 'vitest';
import {
  isAppUrl,
  mainWindowOptions,
  navigationAllowed,
  permissionAllowed,
  secureWebPreferences,
  windowOpenDecision,
} from '../../../build/main/shell/window-policy.js';

const APP = 'http://127.0.0.1:7411';
const A2A = 'http://127.0.0.1:7410';

describe('window policy', () => {
  it('gives the page no Node, an isolated context and Chromium\'s sandbox', () => {
    expect(secureWebPreferences('/app/build/preload/preload.cjs')).toEqual({
      preload: '/app/build/preload/preload.cjs',
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
    });
    const options = mainWindowOptions('/p.cjs', '/icon.png');
    expect(options.show).toBe(false);
    expect(options.icon).toBe('/icon.png');
    expect(options.webPreferences?.sandbox).toBe(true);
    expect(mainWindowOptions('/p.cjs', undefined)).not.toHaveProperty('icon');
  });

  it('keeps the window on the control API\'s origin', () => {
    expect(isAppUrl(`${APP}/?token=x#/inbox`, APP)).toBe(true);
    expect(navigationAllowed(`${APP}/#/tasks/1`, APP)).toBe(true);
    for (const url of [
      'http://127.0.0.1:7412/',
      'http://localhost:7411/',
      'https://127.0.0.1:7411/',
      `${A2A}/agents`,
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,<script>1</script>',
      'about:blank',
      'not a url',
    ]) {
      expect(navigationAllowed(url, APP), url).toBe(false);
    }
  });

  it('never opens a new window; only our own servers\' http pages go to the browser', () => {
    expect(windowOpenDecision(`${A2A}/agents/echo/agent-card.json`, [APP, A2A])).toEqual({
      action: 'deny',
      openExternally: `${A2A}/agents/echo/agent-card.json`,
    });
    for (const url of ['https://example.com/', 'file:///bin/sh', 'smb://host/share', 'javascript:alert(1)', 'vscode://x', 'http://127.0.0.1:9/']) {
      expect(windowOpenDecision(url, [APP, A2A]), url).toEqual({ action: 'deny' });
    }
  });

  it('denies every permission but our page\'s clipboard writes', () => {
    expect(permissionAllowed('clipboard-sanitized-write', `${APP}/`, APP)).toBe(true);
    expect(permissionAllowed('clipboard-sanitized-write', 'https://evil.example/', APP)).toBe(false);
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read', 'fullscreen', 'hid', 'serial', 'usb']) {
      expect(permissionAllowed(permission, `${APP}/`, APP), permission).toBe(false);
    }
  });
});
