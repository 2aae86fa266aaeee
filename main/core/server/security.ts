import { ErrorCode } from '../../shared/error-codes.js';
import { HostError } from '../host-error.js';
import { allowedHostnames, hostnameOfHeader, normalizeOrigin } from './host-names.js';
import { rootPlugin } from './root-plugin.js';

export { isLoopbackHost } from './host-names.js';

export interface SecurityOptions {
  /** The address the server binds. */
  host: string;
  /**
   * Read on every request, so settings changed while the host runs apply at once (the sets are
   * rebuilt only when a getter returns a different array).
   */
  allowedHosts: () => readonly string[];
  allowedOrigins: () => readonly string[];
  /** The config.json section whose allowed_hosts/allowed_origins can widen the checks, for the messages. */
  settingsKey?: string;
}

/** `compute(input)`, recomputed only when `input()` returns a different object. */
function memoized<In, Out>(input: () => In, compute: (value: In) => Out): () => Out {
  let last: { key: In; value: Out } | undefined;
  return () => {
    const key = input();
    if (last?.key !== key) last = { key, value: compute(key) };
    return last.value;
  };
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
  const hostnames = memoized(options.allowedHosts, (extra) => allowedHostnames(options.host, extra));
  const origins = memoized(options.allowedOrigins, (allowed) => new Set(allowed.map(normalizeOrigin)));
  const hint = (what: string): string =>
    options.settingsKey === undefined ? '' : `; add it to ${options.settingsKey}.${what} to allow it`;
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
    if (hostname === undefined || !hostnames().has(hostname)) {
      throw new HostError(
        403,
        ErrorCode.HOST_NOT_ALLOWED,
        host === undefined
          ? 'a Host header is required'
          : `the Host header does not name this server${hint('allowed_hosts')}`,
      );
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !origins().has(normalizeOrigin(origin))) {
      throw new HostError(
        403,
        ErrorCode.ORIGIN_NOT_ALLOWED,
        `requests from this Origin are not allowed${hint('allowed_origins')}`,
      );
    }
  });
});
