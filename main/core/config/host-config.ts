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
    /** An SSE stream idle this long (ms) gets a `ping` event, so proxies keep it open. */
    sse_ping_ms: number;
    /** Unsent bytes an SSE subscriber may have waiting before it is dropped as too slow. */
    sse_max_buffer_bytes: number;
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
  /** The control API's listener (the desk UI): loopback only. */
  control: { host: string; port: number };
  /** Finished tasks older than this many days are deleted with their files; 0 keeps everything. */
  retention_days: number;
  notifications: NotificationSettings;
  /** Whether the A2A server takes new tasks (config.json `intake`; paused from the desk or tray). */
  intake: IntakeSettings;
}

/** config.json `intake`: `{"paused": true, "paused_at": "<ISO>"}` while new tasks are refused. */
export interface IntakeSettings {
  paused: boolean;
  /** When intake was paused; kept only while paused. */
  paused_at?: string;
}

/** The webhook notifier's settings (config.json `notifications`). */
export interface NotificationSettings {
  /** Delays in ms before each retry after the first attempt; once used up, a delivery is dead. */
  retry_schedule_ms: number[];
  /** How long one attempt may take, response headers and body included. */
  timeout_ms: number;
}

/** Immediately, then ≈5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (jittered by the notifier). */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [5000, 300000, 1800000, 7200000, 18000000, 36000000, 36000000];

export const DEFAULT_PORT = 7410;
export const DEFAULT_CONTROL_PORT = 7411;

export function defaultConfig(): HostConfig {
  return {
    server: {
      host: '127.0.0.1',
      port: DEFAULT_PORT,
      require_token: false,
      allowed_hosts: [],
      allowed_origins: [],
      body_limit: 1024 * 1024,
      sse_ping_ms: 15_000,
      sse_max_buffer_bytes: 1024 * 1024,
    },
    runtime: { cancel_grace_ms: 5000, shutdown_grace_ms: 10000, worker_memory_mb: 512 },
    agents: {},
    control: { host: '127.0.0.1', port: DEFAULT_CONTROL_PORT },
    retention_days: 0,
    notifications: { retry_schedule_ms: [...DEFAULT_RETRY_SCHEDULE_MS], timeout_ms: 15000 },
    intake: { paused: false },
  };
}
