import fastifyCors from '@fastify/cors';
import { rootPlugin } from './root-plugin.js';

/** Request headers a browser client may send (preflight's Access-Control-Allow-Headers). */
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'Range',
  'If-Range',
  'If-None-Match',
  'If-Modified-Since',
];

/** Response headers a browser client may read beyond the CORS-safelisted ones. */
const EXPOSED_HEADERS = [
  'Location',
  'Content-Disposition',
  'Content-Range',
  'Accept-Ranges',
  'ETag',
  'Last-Modified',
  'Allow',
  'WWW-Authenticate',
];

/**
 * CORS for browser clients on allowed origins only. The security plugin has already refused
 * any request whose Origin is not allowed, so every Origin that reaches this hook is echoed
 * back (with `Vary: Origin`; never `*`). Requests without an Origin get no CORS headers.
 * Preflights are answered here, before authentication, because browsers send them without
 * the Authorization header.
 */
export const corsPlugin = rootPlugin(async (app) => {
  await app.register(fastifyCors, {
    origin: (origin, callback) => callback(null, origin !== undefined),
    methods: ['GET', 'HEAD', 'POST'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
    // A strict preflight failure is a text/plain 400; a lenient one is harmless, as the
    // origin is already known to be allowed.
    strictPreflight: false,
  });
});
