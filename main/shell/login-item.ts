import type { LoginItemState } from '../shared/desktop-bridge.js';
import type { ShellElectron } from './electron-api.js';
import { autostartFile, isAutostartEnabled, setAutostart } from './linux-autostart.js';

/**
 * "Start at login": off unless the person turns it on (nothing here ever enables it by itself),
 * read back from the system each time, so a change made in the system's own settings shows.
 * macOS and Windows use Electron's login items; Linux an XDG autostart entry.
 */
export interface LoginItemController {
  get(): LoginItemState;
  set(enabled: boolean): LoginItemState;
}

export interface LoginItemOptions {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** The program and arguments that start this app (Linux's autostart entry runs them). */
  launchCommand: readonly string[];
}

export function loginItemController(app: ShellElectron['app'], options: LoginItemOptions): LoginItemController {
  if (options.platform === 'darwin' || options.platform === 'win32') {
    // Started at login, the app opens in the tray only (`--hidden` on Windows, openAsHidden's successor on macOS).
    const settings = { args: ['--hidden'] };
    return {
      get: () => ({ supported: true, enabled: app.getLoginItemSettings(settings).openAtLogin }),
      set(enabled) {
        app.setLoginItemSettings({ ...settings, openAtLogin: enabled });
        return this.get();
      },
    };
  }
  if (options.platform === 'linux') {
    const file = autostartFile(options.env);
    return {
      get: () => ({ supported: true, enabled: isAutostartEnabled(file) }),
      set(enabled) {
        setAutostart(file, enabled, [...options.launchCommand, '--hidden']);
        return this.get();
      },
    };
  }
  return {
    get: () => ({ supported: false, enabled: false }),
    set: () => ({ supported: false, enabled: false }),
  };
}
