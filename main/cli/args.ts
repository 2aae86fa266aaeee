import { parseArgs } from 'node:util';
import { LOG_LEVELS } from '../core/logger.js';

/** A command line that cannot be run: printed with the usage, exit status 2. */
export class UsageError extends Error {
  readonly code = 'USAGE';
}

export const USAGE = `Usage:
  agent-host [--headless] [options]        run the host (the desktop app where it is installed)
  agent-host tokens create --name NAME     create an API token (shown once)
  agent-host tokens list                   list API tokens (no secrets)
  agent-host tokens revoke TOKEN_ID        revoke an API token

Options:
  --headless          run without the desktop app (servers, CI, SSH sessions)
  --host H            address to bind the A2A server (default 127.0.0.1)
  --port P            port of the A2A server (default 7410; 0 picks a free one)
  --data-dir D        data folder (default: the desktop app's folder)
  --plugins DIR       load plugin agents from DIR too (repeatable)
  --log-level L       ${LOG_LEVELS.join(', ')} or silent (default info)
  --name NAME         with tokens create: what the token is for
  -h, --help          show this help
  -v, --version       print the version`;

export type LogLevelName = (typeof LOG_LEVELS)[number] | 'silent';

export interface HostCommand {
  kind: 'host';
  headless: boolean;
  host?: string;
  port?: number;
  dataDir?: string;
  plugins: string[];
  logLevel: LogLevelName;
}

export type TokensCommand =
  | { kind: 'tokens'; action: 'create'; name: string; dataDir?: string }
  | { kind: 'tokens'; action: 'list'; dataDir?: string }
  | { kind: 'tokens'; action: 'revoke'; tokenId: string; dataDir?: string };

export type Command = HostCommand | TokensCommand | { kind: 'help' } | { kind: 'version' };

export function parseCommand(argv: string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        headless: { type: 'boolean' },
        host: { type: 'string' },
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        plugins: { type: 'string', multiple: true },
        'log-level': { type: 'string' },
        name: { type: 'string' },
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
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);

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
  if (values['log-level'] !== undefined) {
    const level = values['log-level'] as LogLevelName;
    if (level !== 'silent' && !LOG_LEVELS.includes(level)) {
      throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, silent`);
    }
    command.logLevel = level;
  }
  return command;
}
