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
    ...(command.controlPort !== undefined ? { controlPort: command.controlPort } : {}),
  };
  // Signals are handled from the very start: one that arrives while the host is still starting
  // stops it as soon as it is up, instead of killing the process half-way through start-up.
  let host: RunningHost | undefined;
  let stopRequested: NodeJS.Signals | undefined;
  let stopping = false;
  let finish: (status: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => (finish = resolve));
  const stop = (signal: NodeJS.Signals): void => {
    if (!host) {
      stopRequested = signal;
      return;
    }
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
        finish(0);
      })
      .catch((err: unknown) => {
        print(`shutdown failed: ${(err as Error).message}`);
        finish(1);
      });
  };
  // `on`, not `once`: a second signal must reach `stop` (exit now), not Node's default handler.
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    host = await startHost({ dataDir, pluginDirs: command.plugins, overrides, logger });
  } catch (err) {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    throw err;
  }
  describeHost(host, print);
  if (stopRequested) stop(stopRequested);
  return finished;
}

function describeHost(host: RunningHost, print: (line: string) => void): void {
  print(`Agent Host ${appVersion()} (headless) listening on ${host.url}`);
  print(`Data folder: ${host.layout.root}`);
  // The token in it works once: opening the address signs that browser in.
  print(`Control UI: ${host.controlLoginUrl}`);
  const agents = host.registry.list();
  const width = Math.max(0, ...agents.map((a) => a.slug.length));
  print(`Agents (${host.url}/agents):`);
  for (const agent of agents) {
    const state = agent.enabled ? '' : '  (disabled)';
    print(`  ${agent.slug.padEnd(width)}  ${host.url}/agents/${agent.slug}${state}`);
  }
  for (const error of host.registry.errors()) print(`Plugin skipped: ${error.dir}: ${error.reason}`);
  if (host.config.server.require_token) print('Bearer tokens are required (agent-host tokens create --name NAME).');
  const intake = host.intake.state();
  if (intake.paused) print(`Intake is paused (since ${intake.paused_at ?? 'start'}): new tasks are refused until it is resumed in the desk UI.`);
  print('Press Ctrl+C to stop.');
}
