import { ErrorCode } from '../../shared/error-codes.js';
import { HostError } from '../host-error.js';
import { allowedHostnames, hostnameOfHeader, normalizeOrigin } from './host-names.js';
import { rootPlugin } from './root-plugin.js';

export { isLoopbackHost } from './host-names.js';

export interface SecurityOptions {
  /** The address the server binds. */
  host: string;
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
}

/**
 * The first checks every request meets (DESIGN.md, "Security model"):
 * - `X-Content-Type-Options: nosniff` on every response, errors included;
 * - the Host header must name this server (DNS-rebinding defence: a page on an attacker's
 *   domain that resolves to 127.0.0.1 still sends its own name as Host);
 * - a request with an Origin must come from an allowed origin. No Origin means a non-browser
 *   client, which CORS does not concern.
 * - once the server is closing, new requests get 503 SHUTTING_DOWN (Fastify's own 503 would
 *   not have the protocol's error shape).
 * Register it before CORS and authentication, so they only see requests that passed.
 */
export const securityPlugin = rootPlugin(async (app, options: SecurityOptions) => {
  const hostnames = allowedHostnames(options.host, options.allowedHosts);
  const origins = new Set(options.allowedOrigins.map(normalizeOrigin));
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    if (closing) {
      reply.header('connection', 'close');
      throw new HostError(503, ErrorCode.SHUTTING_DOWN, 'the server is shutting down');
    }
    const host = request.headers.host;
    const hostname = hostnameOfHeader(host);
    if (hostname === undefined || !hostnames.has(hostname)) {
      throw new HostError(
        403,
        ErrorCode.HOST_NOT_ALLOWED,
        host === undefined
          ? 'a Host header is required'
          : 'the Host header does not name this server; add the name to server.allowed_hosts to allow it',
      );
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !origins.has(normalizeOrigin(origin))) {
      throw new HostError(
        403,
        ErrorCode.ORIGIN_NOT_ALLOWED,
        'requests from this Origin are not allowed; add it to server.allowed_origins to allow it',
      );
    }
  });
});
