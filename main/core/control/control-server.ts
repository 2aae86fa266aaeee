import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../logger.js';
import { errorHandlerPlugin } from '../server/error-handler.js';
import { createFastify } from '../server/fastify-instance.js';
import { jsonBodyPlugin } from '../server/json-body.js';
import { notFoundPlugin } from '../server/not-found.js';
import { securityPlugin } from '../server/security.js';
import type { ControlContext } from './context.js';
import { agentRoutes } from './routes/agents.js';
import { artifactRoutes } from './routes/artifacts.js';
import { deliveryRoutes } from './routes/deliveries.js';
import { eventRoutes } from './routes/events.js';
import { inboxRoutes } from './routes/inbox.js';
import { intakeRoutes } from './routes/intake.js';
import { SESSION_PATH, sessionRoutes } from './routes/session.js';
import { settingsRoutes } from './routes/settings.js';
import { taskRoutes } from './routes/tasks.js';
import { tokenRoutes } from './routes/tokens.js';
import { securityHeadersPlugin } from './security-headers.js';
import { sessionAuthPlugin } from './session-auth.js';
import { uiStaticPlugin } from './ui-static.js';

export interface ControlServerOptions extends ControlContext {
  logger: Logger;
  /** The renderer build to serve (build/renderer/ by default, see defaultUiDir). */
  uiDir: string;
}

/** Every API route is under it; its own 404 handler answers there (the UI's answers elsewhere). */
export const API_PREFIX = '/api';

/** The listener's own origins, by each loopback name: the only Origin its pages send. */
function ownOrigins(app: FastifyInstance): string[] {
  const { port } = app.server.address() as AddressInfo;
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`];
}

/**
 * The control API's listener (not yet listening: the caller calls `listen` on a loopback
 * address): the desk UI's files, and its JSON API under /api. The cross-cutting plugins are the
 * A2A server's own: errors, Host check (loopback names only), Origin check (this listener's own
 * origin only, known once it listens), JSON-only bodies; then the UI's security headers and, under
 * /api, the session check before every route and 404.
 */
export async function buildControlServer(options: ControlServerOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = createFastify(options.logger, config.server.body_limit);
  let origins: string[] | undefined;

  await app.register(errorHandlerPlugin);
  await app.register(securityPlugin, {
    host: config.control.host,
    allowedHosts: () => [],
    allowedOrigins: () => (origins ??= ownOrigins(app)),
  });
  await app.register(jsonBodyPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(uiStaticPlugin, { dir: options.uiDir });

  await app.register(async (api) => {
    await api.register(sessionAuthPlugin, { sessions: options.sessions, openUrls: new Set([`${API_PREFIX}${SESSION_PATH}`]) });
    await api.register(notFoundPlugin);
    await api.register(sessionRoutes, options);
    await api.register(taskRoutes, options);
    await api.register(inboxRoutes, options);
    await api.register(agentRoutes, options);
    await api.register(artifactRoutes, options);
    await api.register(deliveryRoutes, options);
    await api.register(tokenRoutes, options);
    await api.register(settingsRoutes, options);
    await api.register(intakeRoutes, options);
    await api.register(eventRoutes, {
      onEvent: (listener) => options.store.onEvent(listener),
      changes: options.changes,
      queries: options.queries,
      pingMs: config.server.sse_ping_ms,
      maxBufferBytes: config.server.sse_max_buffer_bytes,
    });
  }, { prefix: API_PREFIX });
  return app;
}
