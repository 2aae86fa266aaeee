/**
 * The desktop shell's preload facade: the one object the Electron window's page sees as
 * `window.agentHost`, and the IPC channels behind it. One contract for the three sides: the shell's
 * main process handles the channels, the preload exposes the facade, the renderer feature-detects it
 * (in a plain browser it does not exist). Only what the web cannot do is here.
 *
 * Every argument crosses a process boundary, so both ends validate it: the preload before sending,
 * the main process again (with the sender's frame) before acting.
 */

/** IPC channel names, in one place. `invoke` channels answer; `event` channels go main → page. */
export const DesktopChannel = {
  /** invoke(artifactId) → void: shows the artifact's file in the system file manager. */
  revealArtifact: 'agent-host:artifact:reveal',
  /** invoke(artifactId) → void: opens the artifact's file with its default application. */
  openArtifact: 'agent-host:artifact:open',
  /** invoke(DesktopNotification) → void: a native notification; a click shows its task. */
  showNotification: 'agent-host:notification:show',
  /** invoke() → DesktopInfo: the control API's address and this window's session. */
  getInfo: 'agent-host:desktop:info',
  /** invoke() → LoginItemState. */
  getLoginItem: 'agent-host:login-item:get',
  /** invoke(enabled: boolean) → LoginItemState: the person's explicit choice, nothing else. */
  setLoginItem: 'agent-host:login-item:set',
  /** event(taskId): main asks the page to show this task's prompt (tray item, notification click). */
  openPrompt: 'agent-host:prompt:open',
} as const;
export type DesktopChannel = (typeof DesktopChannel)[keyof typeof DesktopChannel];

/** The channels the page may invoke (everything except main → page events). */
export const DESKTOP_INVOKE_CHANNELS = [
  DesktopChannel.revealArtifact,
  DesktopChannel.openArtifact,
  DesktopChannel.showNotification,
  DesktopChannel.getInfo,
  DesktopChannel.getLoginItem,
  DesktopChannel.setLoginItem,
] as const;

export interface DesktopInfo {
  /** `http://127.0.0.1:PORT` of the control API (the page's own origin). */
  control_url: string;
  /** `http://host:port` of the A2A server. */
  a2a_url: string;
  version: string;
  platform: 'darwin' | 'win32' | 'linux' | 'other';
}

/**
 * A notification the page asks for (say, a task it started finished while the window was in the
 * background). Plain text only; a click brings the window up on `task_id`'s detail, if given.
 */
export interface DesktopNotification {
  /** 1–120 characters. */
  title: string;
  /** At most 500 characters (may be empty). */
  body: string;
  task_id?: string;
}

export const NOTIFICATION_TITLE_MAX = 120;
export const NOTIFICATION_BODY_MAX = 500;

/** The one validation of a notification argument, for the preload (before sending) and main (on receipt). */
export function isDesktopNotification(value: unknown): value is DesktopNotification {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { title, body, task_id: taskId, ...rest } = value as Record<string, unknown>;
  return (
    Object.keys(rest).length === 0 &&
    typeof title === 'string' &&
    title.trim().length > 0 &&
    title.length <= NOTIFICATION_TITLE_MAX &&
    typeof body === 'string' &&
    body.length <= NOTIFICATION_BODY_MAX &&
    (taskId === undefined || isBridgeId(taskId))
  );
}

export interface LoginItemState {
  /** Whether Agent Host starts (in the tray, window hidden) when the person logs in. */
  enabled: boolean;
  /** False where the platform gives no way to do it; the setting is then not offered. */
  supported: boolean;
}

/** What `window.agentHost` offers (every method validates its arguments before sending). */
export interface AgentHostBridge {
  revealArtifact(artifactId: string): Promise<void>;
  openArtifact(artifactId: string): Promise<void>;
  showNotification(notification: DesktopNotification): Promise<void>;
  getInfo(): Promise<DesktopInfo>;
  getLoginItem(): Promise<LoginItemState>;
  setLoginItem(enabled: boolean): Promise<LoginItemState>;
  /** Calls `listener` when the shell asks the page to show a prompt; returns the unsubscribe. */
  onOpenPrompt(listener: (taskId: string) => void): () => void;
}

/** Task and artifact ids are UUIDs: short, no path characters, so nothing path-like gets through. */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** The one validation of an id argument, shared by the preload (before sending) and main (on receipt). */
export function isBridgeId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}
