import { parseArgs } from 'node:util';
import { LOG_LEVELS } from '../core/logger.js';
import { DELIVERY_STATES, type DeliveryState } from '../core/notify/delivery-types.js';

/** A command line that cannot be run: printed with the usage, exit status 2. */
export class UsageError extends Error {
  readonly code = 'USAGE';
}

export const USAGE = `Usage:
  agent-host [--headless] [options]        run the host (the desktop app where it is installed)
  agent-host ui-link                       print a fresh one-time link to the running host's desk UI
  agent-host tokens create --name NAME     create an API token (shown once)
  agent-host tokens list                   list API tokens (no secrets)
  agent-host tokens revoke TOKEN_ID        revoke an API token
  agent-host deliveries list [--task ID] [--state S] [--limit N]
                                           list webhook deliveries (newest first; a task's in order)
  agent-host deliveries redeliver DELIVERY_ID
                                           send a delivered or dead webhook delivery again

Options:
  --headless          run without the desktop app (servers, CI, SSH sessions)
  --hidden            desktop app: start in the tray, window closed (start at login uses it)
  --host H            address to bind the A2A server (default 127.0.0.1)
  --port P            port of the A2A server (default 7410; 0 picks a free one)
  --control-port P    port of the control UI and API, always on 127.0.0.1 (default 7411; 0 picks a free one)
  --data-dir D        data folder (default: the desktop app's folder)
  --plugins DIR       load plugin agents from DIR too (repeatable)
  --log-level L       ${LOG_LEVELS.join(', ')} or silent (default info)
  --name NAME         with tokens create: what the token is for
  --task ID           with deliveries list: only this task's deliveries
  --state S           with deliveries list: ${DELIVERY_STATES.join(', ')}
  --limit N           with deliveries list: at most N (1-1000, default 50)
  -h, --help          show this help
  -v, --version       print the version`;

export type LogLevelName = (typeof LOG_LEVELS)[number] | 'silent';

export interface HostCommand {
  kind: 'host';
  headless: boolean;
  host?: string;
  port?: number;
  controlPort?: number;
  dataDir?: string;
  plugins: string[];
  logLevel: LogLevelName;
}

export type TokensCommand =
  | { kind: 'tokens'; action: 'create'; name: string; dataDir?: string }
  | { kind: 'tokens'; action: 'list'; dataDir?: string }
  | { kind: 'tokens'; action: 'revoke'; tokenId: string; dataDir?: string };

export type DeliveriesCommand =
  | { kind: 'deliveries'; action: 'list'; taskId?: string; state?: DeliveryState; limit: number; dataDir?: string }
  | { kind: 'deliveries'; action: 'redeliver'; deliveryId: number; dataDir?: string };

export interface UiLinkCommand {
  kind: 'ui-link';
  dataDir?: string;
}

export type Command = HostCommand | TokensCommand | DeliveriesCommand | UiLinkCommand | { kind: 'help' } | { kind: 'version' };

export function parseCommand(argv: string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        headless: { type: 'boolean' },
        hidden: { type: 'boolean' },
        host: { type: 'string' },
        port: { type: 'string' },
        'control-port': { type: 'string' },
        'data-dir': { type: 'string' },
        plugins: { type: 'string', multiple: true },
        'log-level': { type: 'string' },
        name: { type: 'string' },
        task: { type: 'string' },
        state: { type: 'string' },
        limit: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const dataDir = values['data-dir'];
  if (dataDir !== undefined && dataDir.trim() === '') throw new UsageError('--data-dir must not be empty');
  const withDataDir = dataDir !== undefined ? { dataDir } : {};

  if (positionals[0] === 'tokens') {
    const action = positionals[1];
    if (action === 'create') {
      const name = values.name?.trim();
      if (!name) throw new UsageError('tokens create needs --name NAME');
      return { kind: 'tokens', action, name, ...withDataDir };
    }
    if (action === 'list') return { kind: 'tokens', action, ...withDataDir };
    if (action === 'revoke') {
      const tokenId = positionals[2];
      if (!tokenId) throw new UsageError('tokens revoke needs a TOKEN_ID (see tokens list)');
      return { kind: 'tokens', action, tokenId, ...withDataDir };
    }
    throw new UsageError(`unknown tokens action ${JSON.stringify(action ?? '')}: use create, list or revoke`);
  }
  if (positionals[0] === 'deliveries') return parseDeliveries(positionals, values, withDataDir);
  if (positionals[0] === 'ui-link') {
    if (positionals.length > 1) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[1])} after ui-link`);
    return { kind: 'ui-link', ...withDataDir };
  }
  if (values.task !== undefined || values.state !== undefined || values.limit !== undefined) {
    throw new UsageError('--task, --state and --limit go with deliveries list');
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);

  if (values.hidden && values.headless) throw new UsageError('--hidden is for the desktop app; --headless has no window to hide');
  // --hidden itself is read by the desktop shell, which gets the same arguments.
  const command: HostCommand = { kind: 'host', headless: values.headless ?? false, plugins: values.plugins ?? [], logLevel: 'info', ...withDataDir };
  if (values.host !== undefined) {
    if (!/^[A-Za-z0-9.:[\]-]+$/.test(values.host)) throw new UsageError(`--host ${JSON.stringify(values.host)} is not a host name or address`);
    command.host = values.host.replace(/^\[(.*)\]$/, '$1');
  }
  if (values.port !== undefined) {
    const port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535, not ${JSON.stringify(values.port)}`);
    command.port = port;
  }
  const controlPort = values['control-port'];
  if (controlPort !== undefined) {
    if (!/^\d+$/.test(controlPort) || Number(controlPort) > 65535) {
      throw new UsageError(`--control-port must be a number from 0 to 65535, not ${JSON.stringify(controlPort)}`);
    }
    command.controlPort = Number(controlPort);
  }
  if (values['log-level'] !== undefined) {
    const level = values['log-level'] as LogLevelName;
    if (level !== 'silent' && !LOG_LEVELS.includes(level)) {
      throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, silent`);
    }
    command.logLevel = level;
  }
  return command;
}

function parseDeliveries(
  positionals: string[],
  values: { task?: string | undefined; state?: string | undefined; limit?: string | undefined },
  withDataDir: { dataDir?: string },
): DeliveriesCommand {
  const action = positionals[1];
  if (action === 'list') {
    if (positionals.length > 2) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[2])}`);
    const command: DeliveriesCommand = { kind: 'deliveries', action, limit: 50, ...withDataDir };
    if (values.task !== undefined) {
      if (values.task.trim() === '') throw new UsageError('--task must not be empty');
      command.taskId = values.task.trim();
    }
    if (values.state !== undefined) {
      const state = values.state as DeliveryState;
      if (!DELIVERY_STATES.includes(state)) throw new UsageError(`--state must be one of ${DELIVERY_STATES.join(', ')}`);
      command.state = state;
    }
    if (values.limit !== undefined) {
      const limit = Number(values.limit);
      if (!/^\d+$/.test(values.limit) || limit < 1 || limit > 1000) throw new UsageError(`--limit must be a number from 1 to 1000, not ${JSON.stringify(values.limit)}`);
      command.limit = limit;
    }
    return command;
  }
  if (values.task !== undefined || values.state !== undefined || values.limit !== undefined) {
    throw new UsageError('--task, --state and --limit go with deliveries list');
  }
  if (action === 'redeliver') {
    const id = positionals[2];
    if (id === undefined) throw new UsageError('deliveries redeliver needs a DELIVERY_ID (see deliveries list)');
    if (!/^[1-9]\d{0,14}$/.test(id)) throw new UsageError(`DELIVERY_ID must be a positive number, not ${JSON.stringify(id)}`);
    if (positionals.length > 3) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[3])}`);
    return { kind: 'deliveries', action, deliveryId: Number(id), ...withDataDir };
  }
  throw new UsageError(`unknown deliveries action ${JSON.stringify(action ?? '')}: use list or redeliver`);
}
