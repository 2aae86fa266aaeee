import type { NotificationConfig } from '../../shared/protocol.js';

/** Per-agent settings from config.json's `agents` map; every key optional. */
export interface AgentSettings {
  enabled?: boolean;
  concurrency?: number;
  notification_config?: NotificationConfig;
}

/** Settings after defaults, config.json and CLI flags are merged (flags win). */
export interface HostConfig {
  server: {
    host: string;
    port: number;
    /** Require `Authorization: Bearer <token>`; forced on when binding beyond loopback. */
    require_token: boolean;
    /** Extra Host header names accepted besides loopback names and the bound address. */
    allowed_hosts: string[];
    /** Origins allowed to call the API from a browser (exact `scheme://host[:port]`). */
    allowed_origins: string[];
    /** Largest request body in bytes. */
    body_limit: number;
  };
  runtime: {
    /** How long a cancelled agent may take to stop before its worker is killed. */
    cancel_grace_ms: number;
    /** On shutdown, how long running tasks get to finish or honour the cancel signal. */
    shutdown_grace_ms: number;
    /** Default heap limit of a worker process, unless its manifest sets one. */
    worker_memory_mb: number;
  };
  agents: Record<string, AgentSettings>;
}

export const DEFAULT_PORT = 7410;

export function defaultConfig(): HostConfig {
  return {
    server: {
      host: '127.0.0.1',
      port: DEFAULT_PORT,
      require_token: false,
      allowed_hosts: [],
      allowed_origins: [],
      body_limit: 1024 * 1024,
    },
    runtime: { cancel_grace_ms: 5000, shutdown_grace_ms: 10000, worker_memory_mb: 512 },
    agents: {},
  };
}
