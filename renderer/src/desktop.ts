/**
 * The desktop shell's preload facade, `window.agentHost`, when the UI runs in the Electron window.
 * Only feature-detected: in a plain browser it does not exist and the buttons that need it are not
 * shown. Methods take an artifact id, not a path, so the main process resolves the path itself and
 * the page can never ask it to open an arbitrary file.
 */
export interface AgentHostBridge {
  /** Shows the artifact's file in the system file manager. */
  revealArtifact?: (artifactId: string) => Promise<void>;
  /** Opens the artifact's file with its default application. */
  openArtifact?: (artifactId: string) => Promise<void>;
}

declare global {
  interface Window {
    agentHost?: AgentHostBridge;
  }
}

export interface DesktopActions {
  reveal?: (artifactId: string) => Promise<void>;
  open?: (artifactId: string) => Promise<void>;
}

/** The native helpers that exist right now (none in a browser). */
export function desktopActions(): DesktopActions {
  const bridge = typeof window === 'undefined' ? undefined : window.agentHost;
  const actions: DesktopActions = {};
  if (bridge && typeof bridge.revealArtifact === 'function') actions.reveal = bridge.revealArtifact.bind(bridge);
  if (bridge && typeof bridge.openArtifact === 'function') actions.open = bridge.openArtifact.bind(bridge);
  return actions;
}
