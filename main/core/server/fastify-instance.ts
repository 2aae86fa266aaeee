import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { clientErrorHandler, frameworkErrorHandler } from './error-handler.js';

/**
 * Node rejects request heads over 16 KiB, so no path parameter can be longer; a higher
 * router limit means an over-long id reaches its route and gets the route's 404 (e.g.
 * TASK_NOT_FOUND) rather than a router error.
 */
const MAX_PARAM_LENGTH = 16 * 1024;

/**
 * A Fastify instance with the options both of the host's listeners (A2A and control) need, so
 * they validate, log and fail alike. Not yet listening; register the plugins, then `listen`.
 */
export function createFastify(pinoLogger: Logger, bodyLimit: number): FastifyInstance {
  // Typed as Fastify's logger so the instance is a plain FastifyInstance for callers.
  const logger: FastifyBaseLogger = pinoLogger;
  const app = Fastify({
    loggerInstance: logger,
    // One line per request at info would drown the host's own log; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Request validation must reject, not repair: Fastify's defaults coerce types and silently
    // drop unknown keys. allErrors stays off (Fastify's default) to bound the work per request.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    // Our security plugin answers 503 SHUTTING_DOWN in the protocol's shape instead.
    return503OnClosing: false,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  });
  // Node's server.close() closes the idle keep-alive connections once, then waits for the others:
  // a response still in progress when the host starts closing would leave its connection open
  // until keepAliveTimeout (72 s), holding the shutdown. Answers sent while closing close theirs.
  // Nor does it close a connection that never sent a request (browsers open spare ones ahead of
  // need): those would hold it until the headers timeout. They are ended when the close begins
  // and once more when it is done listening.
  const unused = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  app.server.on('request', (request: IncomingMessage) => unused.delete(request.socket));
  const endUnused = (): void => {
    for (const socket of unused) socket.destroy();
    unused.clear();
  };
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    endUnused();
  });
  app.addHook('onClose', async () => endUnused());
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
  // A response whose headers left before the close began went out with keep-alive: once it is
  // done, end its connection too (gracefully: what was written is still delivered).
  app.addHook('onResponse', async (request) => {
    if (closing) request.raw.socket?.end();
  });
  return app;
}
