import type { FastifyInstance } from 'fastify';
import { buildAgentCard } from './agents/agent-card.js';
import { AgentRegistry } from './agents/agent-registry.js';
import { loadPlugins, pluginDirs } from './agents/plugin-loader.js';
import { resolveConfig, type ConfigOverrides } from './config/config-file.js';
import { dataDirLayout, prepareDataDir, type DataDirLayout } from './config/data-dir.js';
import type { HostConfig } from './config/host-config.js';
import { appVersion } from './app-version.js';
import { startControlListener, reachableUrl } from './control/control-listener.js';
import { SessionRegistry, type SessionGrant } from './control/sessions.js';
import { defaultUiDir } from './control/ui-static.js';
import { HostChanges } from './host-changes.js';
import { boundPort, httpUrl, listenError } from './listen.js';
import { createLogger, type Logger } from './logger.js';
import type { DeliveryStore } from './notify/delivery-store.js';
import { setUpNotifications } from './notify/notifications.js';
import type { Notifier } from './notify/notifier.js';
import { AgentRuntime } from './runtime/agent-runtime.js';
import { buildA2aServer } from './server/a2a-server.js';
import { isLoopbackHost } from './server/security.js';
import { openDatabase, type Db } from './store/database.js';
import { TaskPurge } from './store/task-purge.js';
import { TaskQueries } from './store/task-queries.js';
import { TaskStore } from './store/task-store.js';
import { TokenStore } from './store/token-store.js';
import { UiLoginStore } from './store/ui-login-store.js';
import { Intake, type IntakeControl } from './tasks/intake.js';
import { TaskPromptFeed, type PromptFeed } from './tasks/prompt-feed.js';
import { RetentionJob } from './tasks/retention-job.js';
import { TaskService } from './tasks/task-service.js';

export { ListenError } from './listen.js';
export type { IntakeState } from '../shared/control-api.js';
export type { IntakeControl } from './tasks/intake.js';
export type { PromptChange, PromptFeed, WaitingPrompt } from './tasks/prompt-feed.js';

export interface HostOptions {
  dataDir: string;
  /** Extra plugin folders (`--plugins DIR`), scanned after the built-in and data-dir ones. */
  pluginDirs?: string[];
  overrides?: ConfigOverrides;
  logger?: Logger;
  /** better-sqlite3 binary to load (the Electron shell passes its own build). */
  nativeBinding?: string;
  /** The renderer build the control listener serves (default: build/renderer/). */
  uiDir?: string;
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
  /** The webhook outbox's history (and manual redelivery). */
  deliveries: DeliveryStore;
  notifier: Notifier;
  /** `http://127.0.0.1:PORT` of the control API and desk UI (loopback only). */
  controlUrl: string;
  controlServer: FastifyInstance;
  /** `controlUrl/?token=…` with the one-time token minted at start: what the headless CLI prints. */
  controlLoginUrl: string;
  /** A fresh one-time token for `POST /api/session` (the desktop window gets `{desktop: true}`). */
  mintSessionToken(grant?: SessionGrant): string;
  /** Tells the control API's live stream that agents, settings, tokens, deliveries or intake changed. */
  changes: HostChanges;
  retention: RetentionJob;
  /** Pause and resume of new tasks (the control API's `/api/intake`, the tray's toggle); saved in config.json. */
  intake: IntakeControl;
  /** Tasks waiting for an answer, and their moves into and out of INPUT_REQUIRED (tray, notifications). */
  prompts: PromptFeed;
  /** Stops intake, lets running tasks finish or see cancel within the grace period, closes the DB. */
  close(): Promise<void>;
  /** While close() runs: the parts it still waits for (to say what holds a shutdown that takes long). */
  pendingClose(): string[];
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
    // Before runtime.start(): the restart recovery's status changes are notified too.
    const { deliveries, notifier } = setUpNotifications({ db, store, agents: registry, settings: config.notifications, logger });
    const runtime = new AgentRuntime({ store, agents: registry, artifactsRoot: layout.artifacts, runtime: config.runtime, logger });
    const changes = new HostChanges();
    const uiLogins = new UiLoginStore(db);
    const intake = new Intake({ configFile: layout.config, settings: config.intake, changes, logger });
    if (intake.isPaused()) logger.warn({ paused_at: intake.state().paused_at }, 'intake is paused: new tasks are refused until it is resumed');
    const service = new TaskService(store, runtime, intake);
    const queries = new TaskQueries(db);
    const prompts = new TaskPromptFeed({ store, queries, agents: registry, logger });
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
      throw listenError(err, { ...config.server, setting: '--port or server.port in config.json' });
    }
    const port = boundPort(server.server.address(), config.server.port);
    const url = httpUrl(config.server.host, port);

    const retention = new RetentionJob({
      purge: new TaskPurge(db),
      artifactsRoot: layout.artifacts,
      retentionDays: () => config.retention_days,
      logger,
    });
    const control = await startControlListener({
      config,
      layout,
      store,
      queries,
      tasks: service,
      registry,
      runtime,
      tokens,
      deliveries,
      changes,
      sessions: new SessionRegistry(uiLogins),
      retention,
      intake,
      a2aUrl: reachableUrl(config.server.host, port),
      version: appVersion(),
      isShuttingDown: () => shuttingDown,
      logger,
      uiDir: options.uiDir ?? defaultUiDir(),
    }).catch(async (err: unknown) => {
      // The A2A server already listens and the runtime runs: stop them before giving up.
      await Promise.all([server.close(), runtime.shutdown(0)]);
      throw err;
    });
    const controlServer = control.server;
    // Where `agent-host ui-link`, run in another process, finds this host.
    uiLogins.announce(process.pid, control.url);
    notifier.onAttempt(() => changes.emit('deliveries'));
    notifier.start();
    retention.start();

    let closing: Promise<void> | undefined;
    const pending = new Set<string>();
    const track = async (part: string, work: () => Promise<void>): Promise<void> => {
      pending.add(part);
      try {
        await work();
      } finally {
        pending.delete(part);
      }
    };
    const close = (): Promise<void> => {
      closing ??= (async () => {
        shuttingDown = true;
        const graceEnds = Date.now() + config.runtime.shutdown_grace_ms;
        await Promise.all([
          track('A2A server', () => server.close()),
          track('control server', () => controlServer.close()),
          track('running tasks', () => runtime.shutdown(config.runtime.shutdown_grace_ms)),
        ]);
        // After the runtime, so the tasks' final status changes are queued (and, if due, attempted
        // in the grace that is left); before the DB closes, since attempts are recorded in it.
        await track('webhook deliveries', () => notifier.stop(Math.max(0, graceEnds - Date.now())));
        await track('retention job', () => retention.stop());
        uiLogins.withdraw(process.pid);
        db.close();
      })();
      return closing;
    };
    return {
      config, layout, url, port, db, store, tokens, registry, runtime, server, logger, deliveries, notifier,
      controlUrl: control.url,
      controlServer,
      controlLoginUrl: control.loginUrl(),
      mintSessionToken: control.mintSessionToken,
      changes,
      retention,
      intake,
      prompts,
      pendingClose: () => [...pending],
      close,
    };
  } catch (err) {
    if (db.open) db.close();
    throw err;
  }
}
