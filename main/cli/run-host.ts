import { defaultDataDir } from '../core/config/data-dir.js';
import { startHost, type RunningHost } from '../core/host.js';
import { createLogger } from '../core/logger.js';
import type { HostCommand } from './args.js';
import { appVersion } from './version.js';

/**
 * Runs the host until SIGINT/SIGTERM, printing where it listens. Resolves with the exit status
 * once everything is shut down; a second signal during shutdown exits at once.
 */
export async function runHeadless(command: HostCommand, print: (line: string) => void): Promise<number> {
  const logger = createLogger(command.logLevel);
  const dataDir = command.dataDir ?? defaultDataDir();
  const overrides = {
    ...(command.host !== undefined ? { host: command.host } : {}),
    ...(command.port !== undefined ? { port: command.port } : {}),
  };
  const host = await startHost({ dataDir, pluginDirs: command.plugins, overrides, logger });
  describeHost(host, print);

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) {
        print(`${signal} again: exiting without waiting for running tasks.`);
        process.exit(130);
      }
      stopping = true;
      print(`${signal}: stopping intake, giving running tasks up to ${host.config.runtime.shutdown_grace_ms} ms…`);
      host
        .close()
        .then(() => {
          print('Agent Host stopped.');
          resolve(0);
        })
        .catch((err: unknown) => {
          print(`shutdown failed: ${(err as Error).message}`);
          resolve(1);
        });
    };
    // `on`, not `once`: a second signal must reach `stop` (exit now), not Node's default handler.
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

function describeHost(host: RunningHost, print: (line: string) => void): void {
  print(`Agent Host ${appVersion()} (headless) listening on ${host.url}`);
  print(`Data folder: ${host.layout.root}`);
  const agents = host.registry.list();
  const width = Math.max(0, ...agents.map((a) => a.slug.length));
  print(`Agents (${host.url}/agents):`);
  for (const agent of agents) {
    const state = agent.enabled ? '' : '  (disabled)';
    print(`  ${agent.slug.padEnd(width)}  ${host.url}/agents/${agent.slug}${state}`);
  }
  for (const error of host.registry.errors()) print(`Plugin skipped: ${error.dir}: ${error.reason}`);
  if (host.config.server.require_token) print('Bearer tokens are required (agent-host tokens create --name NAME).');
  print('Press Ctrl+C to stop.');
}
