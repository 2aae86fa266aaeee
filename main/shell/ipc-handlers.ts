import { DESKTOP_INVOKE_CHANNELS, DesktopChannel, type DesktopInfo, type DesktopNotification, type LoginItemState } from '../shared/desktop-bridge.js';
import type { ShellElectron } from './electron-api.js';
import { checkSender, parseInvoke, type InvokeRequest, type IpcSender } from './ipc-guard.js';

export interface DesktopServices {
  /** The window's webContents id (the only sender answered). */
  windowContentsId: () => number | undefined;
  controlOrigin: string;
  revealArtifact: (artifactId: string) => Promise<void>;
  openArtifact: (artifactId: string) => Promise<void>;
  showNotification: (notification: DesktopNotification) => void;
  info: () => DesktopInfo;
  getLoginItem: () => LoginItemState;
  setLoginItem: (enabled: boolean) => LoginItemState;
  log: (message: string, detail?: Record<string, unknown>) => void;
}

/** Does what a checked request asks. */
export async function serveInvoke(request: InvokeRequest, services: DesktopServices): Promise<unknown> {
  switch (request.channel) {
    case DesktopChannel.revealArtifact:
      return services.revealArtifact(request.artifactId);
    case DesktopChannel.openArtifact:
      return services.openArtifact(request.artifactId);
    case DesktopChannel.showNotification:
      return services.showNotification(request.notification);
    case DesktopChannel.getInfo:
      return services.info();
    case DesktopChannel.getLoginItem:
      return services.getLoginItem();
    case DesktopChannel.setLoginItem:
      return services.setLoginItem(request.enabled);
  }
}

/**
 * One handler per invoke channel: the sender is checked, then the arguments, then the work is
 * done; a refusal is logged and reaches the page as a rejected promise with the reason.
 * Returns the function that removes the handlers (at shutdown).
 */
export function registerIpcHandlers(ipcMain: ShellElectron['ipcMain'], services: DesktopServices): () => void {
  for (const channel of DESKTOP_INVOKE_CHANNELS) {
    ipcMain.handle(channel, async (event, ...args: unknown[]) => {
      try {
        checkSender(event as unknown as IpcSender, services.windowContentsId(), services.controlOrigin);
        return await serveInvoke(parseInvoke(channel, args), services);
      } catch (err) {
        services.log('desktop bridge call failed', { channel, error: (err as Error).message });
        throw err;
      }
    });
  }
  return () => {
    for (const channel of DESKTOP_INVOKE_CHANNELS) ipcMain.removeHandler(channel);
  };
}
