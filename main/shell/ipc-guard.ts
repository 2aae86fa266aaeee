import { DesktopChannel, isBridgeId, isDesktopNotification, NOTIFICATION_BODY_MAX, NOTIFICATION_TITLE_MAX, type DesktopNotification } from '../shared/desktop-bridge.js';
import { isAppUrl } from './window-policy.js';

/**
 * Validation of what arrives over IPC, before the main process acts on it: who sent it (our
 * window's top frame, showing our own page) and what it carries (exactly the arguments the
 * channel takes). The preload validates the same before sending; this side trusts nothing.
 */

/** The parts of Electron's IpcMainInvokeEvent the guard reads. */
export interface IpcSender {
  sender: { id: number };
  senderFrame: { url: string; parent: unknown } | null;
}

export class IpcRefusedError extends Error {
  readonly code = 'IPC_REFUSED';
}

export function checkSender(event: IpcSender, windowContentsId: number | undefined, controlOrigin: string): void {
  const frame = event.senderFrame;
  if (windowContentsId === undefined || event.sender.id !== windowContentsId) {
    throw new IpcRefusedError('IPC refused: the sender is not the Agent Host window');
  }
  if (!frame || frame.parent !== null) throw new IpcRefusedError('IPC refused: only the top frame may call the desktop bridge');
  if (!isAppUrl(frame.url, controlOrigin)) throw new IpcRefusedError('IPC refused: the sending page is not Agent Host\'s own');
}

export type InvokeRequest =
  | { channel: typeof DesktopChannel.revealArtifact; artifactId: string }
  | { channel: typeof DesktopChannel.openArtifact; artifactId: string }
  | { channel: typeof DesktopChannel.showNotification; notification: DesktopNotification }
  | { channel: typeof DesktopChannel.getInfo }
  | { channel: typeof DesktopChannel.getLoginItem }
  | { channel: typeof DesktopChannel.setLoginItem; enabled: boolean };

export function parseInvoke(channel: string, args: readonly unknown[]): InvokeRequest {
  const arity = (n: number): void => {
    if (args.length !== n) throw new IpcRefusedError(`${channel} takes ${n} argument${n === 1 ? '' : 's'}, got ${args.length}`);
  };
  switch (channel) {
    case DesktopChannel.revealArtifact:
    case DesktopChannel.openArtifact: {
      arity(1);
      const [artifactId] = args;
      if (!isBridgeId(artifactId)) throw new IpcRefusedError(`${channel}: the argument must be an artifact id`);
      return { channel, artifactId };
    }
    case DesktopChannel.showNotification: {
      arity(1);
      const [notification] = args;
      if (!isDesktopNotification(notification)) {
        throw new IpcRefusedError(
          `${channel}: the argument must be {title (1-${NOTIFICATION_TITLE_MAX} characters), body (at most ${NOTIFICATION_BODY_MAX}), task_id?}`,
        );
      }
      // Rebuilt from the checked fields only: nothing else the page sent goes further.
      const { title, body, task_id: taskId } = notification;
      return { channel, notification: taskId === undefined ? { title, body } : { title, body, task_id: taskId } };
    }
    case DesktopChannel.getInfo:
    case DesktopChannel.getLoginItem:
      arity(0);
      return { channel };
    case DesktopChannel.setLoginItem: {
      arity(1);
      const [enabled] = args;
      if (typeof enabled !== 'boolean') throw new IpcRefusedError(`${channel}: the argument must be true or false`);
      return { channel, enabled };
    }
    default:
      throw new IpcRefusedError(`unknown channel ${JSON.stringify(channel)}`);
  }
}
