import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AgentCard } from '../../shared/protocol.js';
import type { AgentDirectory, LoadedAgent } from '../agents/loaded-agent.js';
import type { HostConfig } from '../config/host-config.js';
import type { TokenStore } from '../store/token-store.js';
import type { TaskService } from '../tasks/task-service.js';
import { authPlugin } from './auth.js';
import { corsPlugin } from './cors.js';
import { errorHandlerPlugin } from './error-handler.js';
import { createFastify } from './fastify-instance.js';
import { isLoopbackHost } from './host-names.js';
import { jsonBodyPlugin } from './json-body.js';
import { notFoundPlugin } from './not-found.js';
import { agentRoutes } from './routes/agents.js';
import { artifactRoutes } from './routes/artifacts.js';
import { taskRoutes } from './routes/tasks.js';
import { streamRoutes } from './routes/stream.js';
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
 * The A2A server (not yet listening: the caller calls `listen`). Cross-cutting plugins first,
 * in the order their onRequest hooks must run: Host/Origin checks, CORS (answers preflights),
 * bearer tokens, then the JSON body policy; then the routes.
 */
export async function buildA2aServer(options: A2aServerOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = createFastify(options.logger, config.body_limit);

  await app.register(errorHandlerPlugin);
  await app.register(notFoundPlugin);
  await app.register(securityPlugin, {
    host: config.host,
    // `config` is the host's live settings object: the control API's settings apply at once.
    allowedHosts: () => config.allowed_hosts,
    allowedOrigins: () => config.allowed_origins,
    settingsKey: 'server',
  });
  await app.register(corsPlugin);
  await app.register(authPlugin, { tokens: options.tokens, required: () => requiresToken(config) });
  await app.register(jsonBodyPlugin);

  const { agents, tasks } = options;
  await app.register(agentRoutes, { agents, cardFor: options.cardFor });
  await app.register(taskRoutes, { agents, tasks, isShuttingDown: options.isShuttingDown ?? (() => false) });
  await app.register(artifactRoutes, { agents, tasks, artifactsRoot: options.artifactsRoot });
  await app.register(streamRoutes, { agents, tasks, config });
  return app;
}
