import { existsSync, readFileSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { SIGNING_SECRET_PATTERN } from '../notify/signing.js';
import { isLoopbackHost } from '../server/host-names.js';
import { defaultConfig, type AgentSettings, type HostConfig, type IntakeSettings } from './host-config.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** A config.json that cannot be used: the message names the file and the problem. */
export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`${file}: ${problem}`);
    this.name = 'ConfigError';
  }
}

/** What config.json may hold: every key optional, unknown keys refused (they are usually typos). */
export const CONFIG_FILE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    server: {
      type: 'object',
      additionalProperties: false,
      properties: {
        host: { type: 'string', minLength: 1 },
        port: { type: 'integer', minimum: 0, maximum: 65535 },
        require_token: { type: 'boolean' },
        allowed_hosts: { type: 'array', items: { type: 'string', minLength: 1 } },
        allowed_origins: { type: 'array', items: { type: 'string', pattern: '^https?://[^/]+$' } },
        body_limit: { type: 'integer', minimum: 1024, maximum: 1073741824 },
        sse_ping_ms: { type: 'integer', minimum: 100, maximum: 3600000 },
        sse_max_buffer_bytes: { type: 'integer', minimum: 1024, maximum: 1073741824 },
      },
    },
    runtime: {
      type: 'object',
      additionalProperties: false,
      properties: {
        cancel_grace_ms: { type: 'integer', minimum: 0, maximum: 600000 },
        shutdown_grace_ms: { type: 'integer', minimum: 0, maximum: 600000 },
        worker_memory_mb: { type: 'integer', minimum: 32, maximum: 16384 },
      },
    },
    agents: {
      type: 'object',
      propertyNames: { pattern: '^[a-z0-9][a-z0-9-]{0,62}$' },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          enabled: { type: 'boolean' },
          concurrency: { type: 'integer', minimum: 1, maximum: 64 },
          notification_config: {
            type: 'object',
            additionalProperties: false,
            required: ['endpoint_url'],
            properties: {
              endpoint_url: { type: 'string', format: 'uri', pattern: '^https?://' },
              auth_header: { type: 'string', pattern: '^[!#$%&\'*+.^_`|~0-9A-Za-z-]+:\\s*\\S.*$' },
              signing_secret: { type: 'string', pattern: SIGNING_SECRET_PATTERN },
            },
          },
        },
      },
    },
    notifications: {
      type: 'object',
      additionalProperties: false,
      properties: {
        retry_schedule_ms: {
          type: 'array',
          maxItems: 50,
          items: { type: 'integer', minimum: 0, maximum: 604800000 },
        },
        timeout_ms: { type: 'integer', minimum: 10, maximum: 600000 },
      },
    },
    control: {
      type: 'object',
      additionalProperties: false,
      properties: {
        host: { type: 'string', minLength: 1 },
        port: { type: 'integer', minimum: 0, maximum: 65535 },
      },
    },
    retention_days: { type: 'integer', minimum: 0, maximum: 36500 },
    // Written by the control API and the tray (pause/resume intake); a restart keeps it.
    intake: {
      type: 'object',
      additionalProperties: false,
      properties: {
        paused: { type: 'boolean' },
        paused_at: { type: 'string', format: 'date-time' },
      },
    },
  },
} as const;

export interface ConfigFile {
  server?: Partial<HostConfig['server']>;
  runtime?: Partial<HostConfig['runtime']>;
  agents?: Record<string, AgentSettings>;
  notifications?: Partial<HostConfig['notifications']>;
  control?: Partial<HostConfig['control']>;
  retention_days?: number;
  intake?: Partial<IntakeSettings>;
}

const validateConfigFile = addFormats(new Ajv({ allErrors: true })).compile<ConfigFile>(CONFIG_FILE_SCHEMA);

function describe(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((e) => {
      const where = e.instancePath || '(top level)';
      if (e.keyword === 'additionalProperties') {
        return `${where}: unknown key "${String(e.params['additionalProperty'])}"`;
      }
      return `${where} ${e.message ?? 'is invalid'}`;
    })
    .join('; ');
}

/** Reads `file` (a missing file means all defaults) and returns the validated settings in it. */
export function readConfigFile(file: string): ConfigFile {
  if (!existsSync(file)) return {};
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(file, `cannot be read (${(err as Error).message})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(file, `is not valid JSON (${(err as Error).message})`);
  }
  return checkConfigFile(file, parsed);
}

/** `value` as config.json's settings, or a ConfigError naming `file` and what is wrong. */
export function checkConfigFile(file: string, value: unknown): ConfigFile {
  if (!validateConfigFile(value)) throw new ConfigError(file, describe(validateConfigFile.errors));
  // The control API serves the desk UI with a session cookie over plain HTTP: never beyond loopback.
  const controlHost = value.control?.host;
  if (controlHost !== undefined && !isLoopbackHost(controlHost)) {
    throw new ConfigError(file, `/control/host must be a loopback address (127.0.0.1, ::1 or localhost), not ${JSON.stringify(controlHost)}`);
  }
  return value;
}

/** Flags given on the command line; they win over config.json. */
export interface ConfigOverrides {
  host?: string;
  port?: number;
  controlPort?: number;
}

/** Defaults, then config.json, then command-line flags. */
export function resolveConfig(file: string, overrides: ConfigOverrides = {}): HostConfig {
  const fromFile = readConfigFile(file);
  const base = defaultConfig();
  const config: HostConfig = {
    server: { ...base.server, ...fromFile.server },
    runtime: { ...base.runtime, ...fromFile.runtime },
    agents: { ...fromFile.agents },
    notifications: { ...base.notifications, ...fromFile.notifications },
    control: { ...base.control, ...fromFile.control },
    retention_days: fromFile.retention_days ?? base.retention_days,
    intake: { ...base.intake, ...fromFile.intake },
  };
  if (overrides.host !== undefined) config.server.host = overrides.host;
  if (overrides.port !== undefined) config.server.port = overrides.port;
  if (overrides.controlPort !== undefined) config.control.port = overrides.controlPort;
  return config;
}
