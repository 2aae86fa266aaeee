import { ErrorCode } from '../../shared/error-codes.js';
import { HostError } from '../host-error.js';
import type { TokenStore } from '../store/token-store.js';
import { rootPlugin } from './root-plugin.js';

export interface AuthOptions {
  tokens: Pick<TokenStore, 'verify'>;
  /** Read on every request, so turning `server.require_token` on or off applies at once. */
  required: () => boolean;
}

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Requires `Authorization: Bearer <token>` on every request (unknown routes too, so the
 * server reveals nothing to a caller without a token), while `required()` says so. CORS
 * preflights are answered before this hook runs.
 */
export const authPlugin = rootPlugin(async (app, options: AuthOptions) => {
  app.addHook('onRequest', async (request, reply) => {
    if (!options.required()) return;
    const header = request.headers.authorization;
    const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
    if (token !== undefined && options.tokens.verify(token)) return;
    reply.header(
      'www-authenticate',
      header === undefined ? 'Bearer realm="agent-host"' : 'Bearer realm="agent-host", error="invalid_token"',
    );
    throw new HostError(
      401,
      ErrorCode.UNAUTHORIZED,
      header === undefined
        ? 'this server requires Authorization: Bearer <token>'
        : 'the bearer token is not valid',
    );
  });
});
