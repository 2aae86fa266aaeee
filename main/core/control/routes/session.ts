import type { FastifyPluginAsync } from 'fastify';
import type { SessionInfo, SessionRequest } from '../../../shared/control-api.js';
import { ErrorCode } from '../../../shared/error-codes.js';
import { HostError } from '../../host-error.js';
import { requireJsonBody } from '../../server/json-body.js';
import { errorResponses } from '../../server/schemas.js';
import type { ControlContext } from '../context.js';
import { sessionInfoSchema, sessionRequestSchema } from '../schemas.js';
import { authenticate, sessionCookie } from '../session-auth.js';
import type { SessionGrant } from '../sessions.js';

export type SessionRoutesOptions = Pick<ControlContext, 'sessions' | 'version' | 'a2aUrl' | 'layout'>;

/** These routes' path under /api; they are reachable without a session (see sessionAuthPlugin). */
export const SESSION_PATH = '/session';

/** `POST /api/session` (token → session cookie) and `GET /api/session`. */
export const sessionRoutes: FastifyPluginAsync<SessionRoutesOptions> = async (app, options) => {
  const { sessions } = options;
  const info = (session: SessionGrant): SessionInfo => ({
    version: options.version,
    a2a_url: options.a2aUrl,
    data_dir: options.layout.root,
    desktop: session.desktop,
  });

  app.post<{ Body: SessionRequest }>(
    SESSION_PATH,
    {
      schema: { body: sessionRequestSchema, response: { 200: sessionInfoSchema, ...errorResponses(400, 415) } },
      preValidation: requireJsonBody,
    },
    async (request, reply) => {
      const opened = sessions.exchange(request.body.token);
      if (!opened) throw new HostError(401, ErrorCode.UNAUTHORIZED, 'this token is unknown, expired or was used already; `agent-host ui-link` prints a new link');
      reply.header('set-cookie', sessionCookie(opened.id));
      return info(opened.session);
    },
  );

  app.get(SESSION_PATH, { schema: { response: { 200: sessionInfoSchema, ...errorResponses() } } }, async (request) => {
    const auth = authenticate(request, sessions);
    if (!auth) throw new HostError(401, ErrorCode.UNAUTHORIZED, 'no session: open the address with ?token= that Agent Host printed');
    return info(auth.session);
  });
};
