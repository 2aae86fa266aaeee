/**
 * The desktop shell's preload facade, `window.agentHost` (its contract: main/shared/desktop-bridge.ts),
 * when the UI runs in the Electron window. Only feature-detected, method by method: in a plain
 * browser it does not exist, and a preload from another version may offer only some methods, so
 * whatever needs one of them is shown only when that function is there.
 */
import { isBridgeId, type AgentHostBridge, type DesktopNotification, type LoginItemState } from '../../main/shared/desktop-bridge.js';

declare global {
  interface Window {
    /** Partial on purpose: nothing here may assume a method exists before checking it. */
    agentHost?: Partial<AgentHostBridge>;
  }
}

/** The bridge, if the page has one. Read from globalThis so the helpers also run in unit tests. */
function bridge(): Partial<AgentHostBridge> | undefined {
  const value = (globalThis as { agentHost?: unknown }).agentHost;
  return typeof value === 'object' && value !== null ? (value as Partial<AgentHostBridge>) : undefined;
}

export interface DesktopActions {
  reveal?: (artifactId: string) => Promise<void>;
  open?: (artifactId: string) => Promise<void>;
}

/** The native file helpers that exist right now (none in a browser). */
export function desktopActions(): DesktopActions {
  const b = bridge();
  const actions: DesktopActions = {};
  if (typeof b?.revealArtifact === 'function') actions.reveal = b.revealArtifact.bind(b);
  if (typeof b?.openArtifact === 'function') actions.open = b.openArtifact.bind(b);
  return actions;
}

/** Reading and setting "start at login": both functions, or none (the setting is then not offered). */
export interface LoginItemControl {
  get(): Promise<LoginItemState>;
  set(enabled: boolean): Promise<LoginItemState>;
}

export function loginItemControl(): LoginItemControl | undefined {
  const b = bridge();
  if (typeof b?.getLoginItem !== 'function' || typeof b.setLoginItem !== 'function') return undefined;
  return { get: b.getLoginItem.bind(b), set: b.setLoginItem.bind(b) };
}

/**
 * Shows a native notification through the shell, or undefined where there is none (a plain browser,
 * an older preload): the caller then says it inside the page. The result always settles as a
 * promise, even if the bridge throws at once or returns something else, so one `.catch` is enough.
 */
export function desktopNotifier(): ((notification: DesktopNotification) => Promise<void>) | undefined {
  const b = bridge();
  if (typeof b?.showNotification !== 'function') return undefined;
  const show = b.showNotification;
  return (notification) => {
    try {
      return Promise.resolve(show.call(b, notification));
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  };
}

/**
 * Listens for the shell asking the page to show a task's prompt (a tray item, a notification
 * click). Ids that are not ids are dropped. Returns the unsubscribe, or undefined without a bridge.
 */
export function onOpenPrompt(listener: (taskId: string) => void): (() => void) | undefined {
  const b = bridge();
  if (typeof b?.onOpenPrompt !== 'function') return undefined;
  const unsubscribe = b.onOpenPrompt.call(b, (taskId: unknown) => {
    if (isBridgeId(taskId)) listener(taskId);
  });
  return typeof unsubscribe === 'function' ? unsubscribe : undefined;
}
