import { DesktopChannel, isBridgeId, isDesktopNotification, type AgentHostBridge, type DesktopInfo, type LoginItemState } from '../main/shared/desktop-bridge.js';

/** The part of Electron's ipcRenderer the bridge uses. */
export interface BridgeIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

function refuse(message: string): Promise<never> {
  return Promise.reject(new TypeError(message));
}

/**
 * `window.agentHost`: a fixed set of functions, never ipcRenderer itself (the page could then send
 * anything on any channel). Arguments are checked here before they are sent, and again in main.
 */
export function createBridge(ipc: BridgeIpc): AgentHostBridge {
  return {
    revealArtifact: (artifactId) =>
      isBridgeId(artifactId) ? (ipc.invoke(DesktopChannel.revealArtifact, artifactId) as Promise<void>) : refuse('revealArtifact needs an artifact id'),
    openArtifact: (artifactId) =>
      isBridgeId(artifactId) ? (ipc.invoke(DesktopChannel.openArtifact, artifactId) as Promise<void>) : refuse('openArtifact needs an artifact id'),
    showNotification: (notification) =>
      isDesktopNotification(notification)
        ? (ipc.invoke(DesktopChannel.showNotification, notification) as Promise<void>)
        : refuse('showNotification needs {title, body, task_id?} within their lengths'),
    getInfo: () => ipc.invoke(DesktopChannel.getInfo) as Promise<DesktopInfo>,
    getLoginItem: () => ipc.invoke(DesktopChannel.getLoginItem) as Promise<LoginItemState>,
    setLoginItem: (enabled) =>
      typeof enabled === 'boolean' ? (ipc.invoke(DesktopChannel.setLoginItem, enabled) as Promise<LoginItemState>) : refuse('setLoginItem needs true or false'),
    onOpenPrompt(listener) {
      if (typeof listener !== 'function') throw new TypeError('onOpenPrompt needs a function');
      // The IPC event is not handed to the page: it carries the sender, which the page must not see.
      const relay = (_event: unknown, taskId: unknown): void => {
        if (isBridgeId(taskId)) listener(taskId);
      };
      ipc.on(DesktopChannel.openPrompt, relay);
      return () => {
        ipc.removeListener(DesktopChannel.openPrompt, relay);
      };
    },
  };
}
