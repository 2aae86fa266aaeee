import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { rawErrorResponse, sendErrorReply, toErrorReply } from './errors.js';
import { rootPlugin } from './root-plugin.js';

/**
 * Every error a route, hook or Fastify itself raises becomes `{"error":{"code","message"}}`
 * with a fitting status. Unexpected errors are logged in full and shown as a generic 500.
 */
export const errorHandlerPlugin = rootPlugin(async (app) => {
  app.setErrorHandler((err: unknown, request, reply) => {
    const { statusCode, body, unexpected, headers } = toErrorReply(err);
    if (unexpected) request.log.error({ err }, 'request failed');
    if (headers !== undefined) reply.headers(headers);
    // A body the parser gave up on may still be arriving: don't keep reading it on this socket.
    if (statusCode === 413) reply.header('connection', 'close');
    return sendErrorReply(reply, statusCode, body);
  });
});

/**
 * For Fastify's `frameworkErrors` option: errors found while routing (a URL that cannot be
 * decoded), before any hook runs.
 */
export function frameworkErrorHandler(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const { statusCode, body } = toErrorReply(err);
  void sendErrorReply(reply, statusCode, body);
}

/** For Fastify's `clientErrorHandler` option: HTTP Node could not parse, answered in our error shape. */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let response: string;
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') response = rawErrorResponse(408, 'the request took too long to arrive');
  else if (err.code === 'HPE_HEADER_OVERFLOW') response = rawErrorResponse(431, 'the request headers are too large');
  else response = rawErrorResponse(400, 'the request is not valid HTTP');
  // end() flushes the response before closing; a socket that can't be written is just dropped.
  if (socket.writable) socket.end(response);
  else socket.destroy();
}
