import type { FastifyInstance } from 'fastify';
import { buildAgentCard } from './agents/agent-card.js';
import { AgentRegistry } from './agents/agent-registry.js';
import { loadPlugins, pluginDirs } from './agents/plugin-loader.js';
import { resolveConfig, type ConfigOverrides } from './config/config-file.js';
import { dataDirLayout, prepareDataDir, type DataDirLayout } from './config/data-dir.js';
import type { HostConfig } from './config/host-config.js';
import { createLogger, type Logger } from './logger.js';
import { AgentRuntime } from './runtime/agent-runtime.js';
import { buildA2aServer } from './server/a2a-server.js';
import { isLoopbackHost } from './server/security.js';
import { openDatabase, type Db } from './store/database.js';
import { TaskStore } from './store/task-store.js';
import { TokenStore } from './store/token-store.js';
import { TaskService } from './tasks/task-service.js';

export interface HostOptions {
  dataDir: string;
  /** Extra plugin folders (`--plugins DIR`), scanned after the built-in and data-dir ones. */
  pluginDirs?: string[];
  overrides?: ConfigOverrides;
  logger?: Logger;
  /** better-sqlite3 binary to load (the Electron shell passes its own build). */
  nativeBinding?: string;
}

export interface RunningHost {
  config: HostConfig;
  layout: DataDirLayout;
  /** `http://host:port` the A2A server listens on. */
  url: string;
  port: number;
  db: Db;
  store: TaskStore;
  tokens: TokenStore;
  registry: AgentRegistry;
  runtime: AgentRuntime;
  server: FastifyInstance;
  logger: Logger;
  /** Stops intake, lets running tasks finish or see cancel within the grace period, closes the DB. */
  close(): Promise<void>;
}

/**
 * Starts the host core: settings, store, plugins, runtime (with restart recovery) and the A2A
 * server, in that order, so a bad config or data dir fails before anything is touched.
 */
export async function startHost(options: HostOptions): Promise<RunningHost> {
  const logger = options.logger ?? createLogger();
  const layout = dataDirLayout(options.dataDir);
  prepareDataDir(layout);
  const config = resolveConfig(layout.config, options.overrides);
  if (!isLoopbackHost(config.server.host) && !config.server.require_token) {
    // DESIGN.md: tokens are always required when the server is reachable beyond this machine.
    config.server.require_token = true;
    logger.warn({ host: config.server.host }, 'binding beyond loopback: bearer tokens are required');
  }

  const db = openDatabase(layout.database, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    const store = new TaskStore(db);
    const tokens = new TokenStore(db);
    // loadPlugins logs each skipped plugin itself.
    const { agents, errors } = await loadPlugins({
      dirs: pluginDirs(layout.root, options.pluginDirs),
      store,
      settings: config.agents,
      logger,
    });
    const registry = new AgentRegistry(agents, errors);
    const runtime = new AgentRuntime({ store, agents: registry, artifactsRoot: layout.artifacts, runtime: config.runtime, logger });
    const service = new TaskService(store, runtime);
    let shuttingDown = false;
    const server = await buildA2aServer({
      config: config.server,
      agents: registry,
      tasks: service,
      cardFor: buildAgentCard,
      artifactsRoot: layout.artifacts,
      tokens,
      logger,
      isShuttingDown: () => shuttingDown,
    });
    runtime.start();
    if (config.server.require_token && tokens.list().length === 0) {
      logger.warn('tokens are required but none exist: create one with `agent-host tokens create --name NAME`');
    }
    try {
      await server.listen({ host: config.server.host, port: config.server.port });
    } catch (err) {
      await runtime.shutdown(0);
      throw listenError(err, config);
    }
    const address = server.server.address();
    const port = typeof address === 'object' && address ? address.port : config.server.port;
    const url = `http://${formatHost(config.server.host)}:${port}`;

    let closing: Promise<void> | undefined;
    const close = (): Promise<void> => {
      closing ??= (async () => {
        shuttingDown = true;
        await Promise.all([server.close(), runtime.shutdown(config.runtime.shutdown_grace_ms)]);
        db.close();
      })();
      return closing;
    };
    return { config, layout, url, port, db, store, tokens, registry, runtime, server, logger, close };
  } catch (err) {
    if (db.open) db.close();
    throw err;
  }
}

export class ListenError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function listenError(err: unknown, config: HostConfig): Error {
  const code = (err as NodeJS.ErrnoException).code ?? 'LISTEN_FAILED';
  const where = `${config.server.host}:${config.server.port}`;
  if (code === 'EADDRINUSE') {
    return new ListenError(code, `port ${where} is already in use (another Agent Host?); choose another with --port or server.port in config.json`);
  }
  if (code === 'EACCES') return new ListenError(code, `not allowed to listen on ${where}; choose a port above 1024`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new ListenError(code, `cannot listen on ${where}: no such address on this machine`);
  }
  return new ListenError(code, `cannot listen on ${where}: ${(err as Error).message}`);
}

function formatHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
