import { join } from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import type { ShellElectron, ShellTray } from './electron-api.js';
import { trayIconVariant, trayMenuModel, trayTooltip, type TrayAction, type TrayMenuItem, type TrayState } from './tray-model.js';

export interface TrayOptions {
  /** Folder of the tray PNGs (assets/tray). */
  iconDir: string;
  platform: NodeJS.Platform;
  /** The current state, read at each refresh. */
  state: () => TrayState;
  onAction: (action: TrayAction) => void;
}

/**
 * The icon file for a variant. macOS gets template images, which it tints for light and dark menu
 * bars; Electron treats a file as one only when its name ends in `Template`.
 */
export function trayIconFile(iconDir: string, platform: NodeJS.Platform, variant: 'idle' | 'attention'): string {
  if (platform === 'darwin') return join(iconDir, variant === 'attention' ? 'trayAttentionTemplate.png' : 'trayTemplate.png');
  return join(iconDir, variant === 'attention' ? 'tray-attention.png' : 'tray.png');
}

export function menuTemplate(model: readonly TrayMenuItem[], onAction: (action: TrayAction) => void): MenuItemConstructorOptions[] {
  return model.map((item): MenuItemConstructorOptions => {
    switch (item.type) {
      case 'separator':
        return { type: 'separator' };
      case 'header':
        return { label: item.label, enabled: false };
      case 'action':
        return { label: item.label, enabled: item.enabled, click: () => onAction(item.action) };
      case 'checkbox':
        return { type: 'checkbox', label: item.label, checked: item.checked, enabled: item.enabled, click: () => onAction(item.action) };
    }
  });
}

/**
 * The tray icon: always there (closing the window keeps the app running), with a context menu
 * (Linux trays show only that), the waiting prompts' count in the tooltip, the icon (and the
 * macOS menu bar title), and the prompts themselves as menu items.
 */
export class AppTray {
  private readonly tray: ShellTray;
  private variant: 'idle' | 'attention' | undefined;
  private pending: NodeJS.Timeout | undefined;
  /** The last menu model shown: what tests and the Electron tests read back. */
  model: TrayMenuItem[] = [];

  constructor(
    private readonly electron: Pick<ShellElectron, 'Tray' | 'Menu' | 'nativeImage' | 'app'>,
    private readonly options: TrayOptions,
  ) {
    this.tray = new electron.Tray(electron.nativeImage.createFromPath(trayIconFile(options.iconDir, options.platform, 'idle')));
    this.variant = 'idle';
    // Windows and macOS: a click on the icon opens the window; the menu is on right-click.
    this.tray.on('click', () => options.onAction({ kind: 'open-window' }));
    this.refresh();
  }

  /** Coalesces bursts (hundreds of prompts arriving at once rebuild the menu once). */
  scheduleRefresh(delayMs = 100): void {
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.refresh();
    }, delayMs);
  }

  refresh(): void {
    if (this.tray.isDestroyed()) return;
    const state = this.options.state();
    this.model = trayMenuModel(state);
    this.tray.setContextMenu(this.electron.Menu.buildFromTemplate(menuTemplate(this.model, this.options.onAction)));
    this.tray.setToolTip(trayTooltip(state.total, state.intakePaused));
    const variant = trayIconVariant(state.total);
    if (variant !== this.variant) {
      this.tray.setImage(this.electron.nativeImage.createFromPath(trayIconFile(this.options.iconDir, this.options.platform, variant)));
      this.variant = variant;
    }
    if (this.options.platform === 'darwin') this.tray.setTitle(state.total > 0 ? String(state.total) : '');
    // The dock / launcher badge (macOS, and Linux launchers that support it).
    this.electron.app.setBadgeCount(state.total);
  }

  destroy(): void {
    if (this.pending) clearTimeout(this.pending);
    this.pending = undefined;
    if (!this.tray.isDestroyed()) this.tray.destroy();
  }
}
