import type { SettingsInfo, SettingsPatch } from '../../shared/control-api.js';
import { readConfigFile, type ConfigFile } from '../config/config-file.js';
import { section } from '../config/config-writer.js';
import { defaultConfig } from '../config/host-config.js';
import type { ControlContext } from './context.js';
import { readSavedConfig, saveConfig } from './saved-config.js';

export type HostSettingsDeps = Pick<ControlContext, 'config' | 'layout' | 'changes' | 'retention'>;

interface Bind {
  host: string;
  port: number;
}

/** Where config.json says the A2A server should listen (flags aside: they are not saved). */
function savedBind(file: ConfigFile): Bind {
  const defaults = defaultConfig().server;
  return { host: file.server?.host ?? defaults.host, port: file.server?.port ?? defaults.port };
}

/**
 * The settings page: `GET` and `PATCH /api/settings`. A patch is saved to config.json and, except
 * for the bind address and port, applied at once to the live settings object the A2A server reads
 * on every request (token requirement, allowed hosts and origins) and to the retention job.
 */
export class HostSettings {
  /** config.json's bind when the host started: a differing one now takes a restart to apply. */
  private readonly startBind: Bind;

  constructor(private readonly deps: HostSettingsDeps) {
    this.startBind = savedBind(readConfigFile(deps.layout.config));
  }

  get(file: ConfigFile = readSavedConfig(this.deps.layout.config)): SettingsInfo {
    const { server } = this.deps.config;
    const bind = savedBind(file);
    return {
      server: {
        host: bind.host,
        port: bind.port,
        require_token: server.require_token,
        allowed_hosts: [...server.allowed_hosts],
        allowed_origins: [...server.allowed_origins],
      },
      retention_days: this.deps.config.retention_days,
      data_dir: this.deps.layout.root,
      restart_required: bind.host !== this.startBind.host || bind.port !== this.startBind.port,
    };
  }

  patch(patch: SettingsPatch): SettingsInfo {
    const saved = saveConfig(this.deps.layout.config, (raw) => {
      if (patch.server !== undefined) Object.assign(section(raw, 'server'), patch.server);
      if (patch.retention_days !== undefined) raw['retention_days'] = patch.retention_days;
    });
    const { config } = this.deps;
    const server = patch.server ?? {};
    if (server.require_token !== undefined) config.server.require_token = server.require_token;
    // New arrays, not edits in place: the A2A server rebuilds its sets when the array changes.
    if (server.allowed_hosts !== undefined) config.server.allowed_hosts = [...server.allowed_hosts];
    if (server.allowed_origins !== undefined) config.server.allowed_origins = [...server.allowed_origins];
    if (patch.retention_days !== undefined) {
      config.retention_days = patch.retention_days;
      // A shorter period applies now rather than at the next hourly pass.
      this.deps.retention.runSoon();
    }
    this.deps.changes.emit('settings');
    return this.get(saved);
  }
}
