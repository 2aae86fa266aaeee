import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '../../shared/error-codes.js';
import { HostError } from '../host-error.js';
import { rootPlugin } from '../server/root-plugin.js';
import type { SessionGrant, SessionRegistry } from './sessions.js';

export const SESSION_COOKIE = 'ah_session';

/**
 * The session cookie. HttpOnly: page scripts never see it. SameSite=Strict: other sites' pages
 * never send it. No Secure: the listener is plain http on loopback, where browsers would drop it.
 * No Max-Age: it ends with the browser session (and every session ends with the host).
 */
export function sessionCookie(id: string): string {
  return `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Strict`;
}

/** Every value of cookie `name` in a Cookie header (another app on 127.0.0.1 may have set one too). */
function cookieValues(header: string | undefined, name: string): string[] {
  if (header === undefined) return [];
  const values: string[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) values.push(part.slice(eq + 1).trim());
  }
  return values;
}

const BEARER = /^Bearer +(\S+) *$/i;

export interface Authenticated {
  session: SessionGrant;
  /** A cookie rides along on browser requests by itself (CSRF matters); a bearer header does not. */
  via: 'cookie' | 'bearer';
}

/** The request's session: `Authorization: Bearer <session>` (non-browser clients), else the cookie. */
export function authenticate(request: FastifyRequest, sessions: SessionRegistry): Authenticated | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const id = BEARER.exec(header)?.[1];
    const session = id === undefined ? undefined : sessions.get(id);
    return session ? { session, via: 'bearer' } : undefined;
  }
  for (const id of cookieValues(request.headers.cookie, SESSION_COOKIE)) {
    const session = sessions.get(id);
    if (session) return { session, via: 'cookie' };
  }
  return undefined;
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface SessionAuthOptions {
  sessions: SessionRegistry;
  /** Route URLs reachable without a session (the login itself). */
  openUrls: ReadonlySet<string>;
}

/**
 * Every request in this context needs a session (unknown paths too, so nothing is revealed
 * before login), except `openUrls`. A cookie-authenticated request that changes something must
 * carry an Origin: the security plugin has already refused any Origin but the listener's own,
 * and browsers always send it on such requests, so a request without one did not come from our
 * page (defence in depth behind SameSite=Strict, which does not tell ports of 127.0.0.1 apart).
 */
export const sessionAuthPlugin = rootPlugin(async (app, options: SessionAuthOptions) => {
  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    if (url !== undefined && options.openUrls.has(url)) return;
    const auth = authenticate(request, options.sessions);
    if (!auth) {
      throw new HostError(401, ErrorCode.UNAUTHORIZED, 'no session: open the address with ?token= that Agent Host printed, or POST /api/session');
    }
    if (auth.via === 'cookie' && !READ_METHODS.has(request.method) && request.headers.origin === undefined) {
      throw new HostError(403, ErrorCode.ORIGIN_NOT_ALLOWED, 'a change made with the session cookie must come from the control UI (Origin header)');
    }
  });
});
