import type { WaitingPrompt } from '../core/tasks/prompt-feed.js';

/**
 * The tray's menu, tooltip and icon as plain data, built from the host's state; tray.ts turns it
 * into Electron's Menu. Kept pure so what the menu offers is tested without Electron.
 */

export type TrayAction =
  | { kind: 'open-window' }
  | { kind: 'open-inbox' }
  | { kind: 'open-prompt'; taskId: string }
  | { kind: 'set-intake-paused'; paused: boolean }
  | { kind: 'set-start-at-login'; enabled: boolean }
  | { kind: 'quit' };

export type TrayMenuItem =
  | { type: 'separator' }
  | { type: 'header'; label: string }
  | { type: 'action'; label: string; action: TrayAction; enabled: boolean }
  | { type: 'checkbox'; label: string; checked: boolean; action: TrayAction; enabled: boolean };

export interface TrayState {
  /** Newest first; at most MAX_MENU_PROMPTS are listed. */
  prompts: readonly WaitingPrompt[];
  /** Every waiting prompt, not only the listed ones. */
  total: number;
  intakePaused: boolean;
  /** Undefined where the platform cannot start apps at login (the item is then left out). */
  startAtLogin: boolean | undefined;
  /** True once quit was chosen: the menu only says so. */
  quitting: boolean;
}

export const MAX_MENU_PROMPTS = 8;
const LABEL_MAX = 60;

export function trayMenuModel(state: TrayState): TrayMenuItem[] {
  if (state.quitting) return [{ type: 'header', label: 'Stopping Agent Host…' }];
  const items: TrayMenuItem[] = [{ type: 'action', label: 'Open Agent Host', action: { kind: 'open-window' }, enabled: true }];
  items.push({ type: 'separator' });
  if (state.total === 0) {
    items.push({ type: 'header', label: 'No prompts waiting' });
  } else {
    items.push({ type: 'header', label: state.total === 1 ? '1 prompt waiting' : `${state.total} prompts waiting` });
    for (const prompt of state.prompts.slice(0, MAX_MENU_PROMPTS)) {
      items.push({ type: 'action', label: promptLabel(prompt), action: { kind: 'open-prompt', taskId: prompt.task_id }, enabled: true });
    }
    const unlisted = state.total - Math.min(state.prompts.length, MAX_MENU_PROMPTS);
    if (unlisted > 0) {
      items.push({ type: 'action', label: `${unlisted} more in the Inbox…`, action: { kind: 'open-inbox' }, enabled: true });
    }
  }
  items.push({ type: 'separator' });
  items.push(
    state.intakePaused
      ? { type: 'action', label: 'Resume intake', action: { kind: 'set-intake-paused', paused: false }, enabled: true }
      : { type: 'action', label: 'Pause intake', action: { kind: 'set-intake-paused', paused: true }, enabled: true },
  );
  if (state.startAtLogin !== undefined) {
    items.push({
      type: 'checkbox',
      label: 'Start at login',
      checked: state.startAtLogin,
      action: { kind: 'set-start-at-login', enabled: !state.startAtLogin },
      enabled: true,
    });
  }
  items.push({ type: 'separator' });
  items.push({ type: 'action', label: 'Quit Agent Host', action: { kind: 'quit' }, enabled: true });
  return items;
}

/** "Agent name: first words of the prompt…", one line. */
export function promptLabel(prompt: WaitingPrompt): string {
  const text = `${prompt.agent_display_name}: ${prompt.prompt.replace(/\s+/g, ' ').trim() || 'needs input'}`;
  // Menus treat `&` as a mnemonic marker on Windows and Linux: double it so it shows as itself.
  const clipped = text.length > LABEL_MAX ? `${text.slice(0, LABEL_MAX - 1).trimEnd()}…` : text;
  return clipped.replace(/&/g, '&&');
}

export function trayTooltip(total: number, intakePaused: boolean): string {
  const waiting = total === 0 ? 'no prompts waiting' : total === 1 ? '1 prompt waiting' : `${total} prompts waiting`;
  return `Agent Host — ${waiting}${intakePaused ? ' · intake paused' : ''}`;
}

/** Which icon the tray shows: the attention variant (a dot) while prompts wait. */
export function trayIconVariant(total: number): 'idle' | 'attention' {
  return total > 0 ? 'attention' : 'idle';
}
