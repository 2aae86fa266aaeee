import type { ValidateFunction } from 'ajv';
import type { AgentManifest } from '../../shared/plugin-api.js';
import type { NotificationConfig } from '../../shared/protocol.js';

export type PluginSource = 'builtin' | 'data-dir' | 'cli';

/** A plugin agent whose manifest is valid and whose entry imported, ready to run tasks. */
export interface LoadedAgent {
  slug: string;
  manifest: AgentManifest;
  /** The plugin's folder. */
  dir: string;
  /** Absolute path of the ES module whose default export is `run`. */
  entryPath: string;
  source: PluginSource;
  /** Stable across restarts and reinstalls (see TaskStore.agentIdFor). */
  agentId: string;
  enabled: boolean;
  /** Manifest's concurrency unless config overrides it. */
  concurrency: number;
  notificationConfig?: NotificationConfig;
  validateInput: ValidateFunction;
  validateOutput?: ValidateFunction;
}

/** A plugin folder that was skipped, and why. */
export interface PluginLoadError {
  dir: string;
  slug?: string;
  reason: string;
}

/** The loaded agents, by slug: what the runtime and the server look agents up in. */
export interface AgentDirectory {
  get(slug: string): LoadedAgent | undefined;
  list(): LoadedAgent[];
}
