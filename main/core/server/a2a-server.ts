import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AgentCard } from '../../shared/protocol.js';
import type { AgentDirectory, LoadedAgent } from '../agents/loaded-agent.js';
import type { HostConfig } from '../config/host-config.js';
import type { TokenStore } from '../store/token-store.js';
import type { TaskService } from '../tasks/task-service.js';
import { authPlugin } from './auth.js';
import { corsPlugin } from './cors.js';
import { clientErrorHandler, errorHandlerPlugin, frameworkErrorHandler } from './error-handler.js';
import { isLoopbackHost } from './host-names.js';
import { jsonBodyPlugin } from './json-body.js';
import { notFoundPlugin } from './not-found.js';
import { agentRoutes } from './routes/agents.js';
import { artifactRoutes } from './routes/artifacts.js';
import { taskRoutes } from './routes/tasks.js';
import { securityPlugin } from './security.js';

export interface A2aServerOptions {
  config: HostConfig['server'];
  agents: AgentDirectory;
  tasks: TaskService;
  /** Builds an agent's card (the agents module's `buildAgentCard`). */
  cardFor: (agent: LoadedAgent) => AgentCard;
  /** Folder that `file` artifacts' stored paths are relative to. */
  artifactsRoot: string;
  tokens: TokenStore;
  logger: Logger;
  /** True once the host is shutting down: new tasks are then refused with 503 SHUTTING_DOWN. */
  isShuttingDown?: () => boolean;
}

/** Whether the server demands bearer tokens: when configured, and always beyond loopback. */
export function requiresToken(config: Pick<HostConfig['server'], 'host' | 'require_token'>): boolean {
  return config.require_token || !isLoopbackHost(config.host);
}

/**
 * Node rejects request heads over 16 KiB, so no path parameter can be longer; a higher
 * router limit means an over-long id reaches its route and gets the route's 404 (e.g.
 * TASK_NOT_FOUND) rather than a router error.
 */
const MAX_PARAM_LENGTH = 16 * 1024;

/**
 * The A2A server (not yet listening: the caller calls `listen`). Cross-cutting plugins first,
 * in the order their onRequest hooks must run: Host/Origin checks, CORS (answers preflights),
 * bearer tokens, then the JSON body policy; then the routes.
 */
export async function buildA2aServer(options: A2aServerOptions): Promise<FastifyInstance> {
  const { config } = options;
  // Typed as Fastify's logger so the instance is a plain FastifyInstance for callers.
  const logger: FastifyBaseLogger = options.logger;
  const app = Fastify({
    loggerInstance: logger,
    // One line per request at info would drown the host's own log; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.body_limit,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Request validation must reject, not repair: Fastify's defaults coerce types and silently
    // drop unknown keys. allErrors stays off (Fastify's default) to bound the work per request.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    // Our security plugin answers 503 SHUTTING_DOWN in the protocol's shape instead.
    return503OnClosing: false,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  });

  const requireToken = requiresToken(config);
  await app.register(errorHandlerPlugin);
  await app.register(notFoundPlugin);
  await app.register(securityPlugin, {
    host: config.host,
    allowedHosts: config.allowed_hosts,
    allowedOrigins: config.allowed_origins,
  });
  await app.register(corsPlugin);
  if (requireToken) await app.register(authPlugin, { tokens: options.tokens });
  await app.register(jsonBodyPlugin);

  const { agents, tasks } = options;
  await app.register(agentRoutes, { agents, cardFor: options.cardFor });
  await app.register(taskRoutes, { agents, tasks, isShuttingDown: options.isShuttingDown ?? (() => false) });
  await app.register(artifactRoutes, { agents, tasks, artifactsRoot: options.artifactsRoot });
  return app;
}
