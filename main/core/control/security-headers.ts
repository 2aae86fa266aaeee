import { rootPlugin } from '../server/root-plugin.js';

/**
 * The UI's Content-Security-Policy: only this origin's own scripts, styles (inline ones too, for
 * the components' style attributes), images and connections; no framing, no <base>, forms only
 * to itself.
 */
export const UI_CSP =
  "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self'; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/**
 * Every response of the control listener carries the UI's CSP (unless the route set a stricter
 * one, as artifact content does: `sandbox`) and sends no Referer, so the one-time token in the
 * page's URL never leaks to another site. API answers are private data: never stored by a cache
 * unless the route says otherwise. nosniff comes from the security plugin.
 */
export const securityHeadersPlugin = rootPlugin(async (app) => {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', UI_CSP);
    reply.header('referrer-policy', 'no-referrer');
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
});
