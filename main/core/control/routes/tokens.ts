import type { FastifyPluginAsync } from 'fastify';
import type { ApiTokenList, CreatedApiTokenInfo } from '../../../shared/control-api.js';
import { ErrorCode } from '../../../shared/error-codes.js';
import { HostError } from '../../host-error.js';
import { requireJsonBody } from '../../server/json-body.js';
import { errorResponses } from '../../server/schemas.js';
import type { ControlContext } from '../context.js';
import { createdTokenSchema, tokenCreateSchema, tokenListSchema, idParamsSchema } from '../schemas.js';

export type TokenRoutesOptions = Pick<ControlContext, 'tokens' | 'changes'>;

/** The A2A server's API tokens: list (never a secret), create (the secret, once), revoke. */
export const tokenRoutes: FastifyPluginAsync<TokenRoutesOptions> = async (app, { tokens, changes }) => {
  app.get('/tokens', { schema: { response: { 200: tokenListSchema, ...errorResponses() } } }, async (): Promise<ApiTokenList> => ({
    tokens: tokens.list(),
  }));

  app.post<{ Body: { name: string } }>(
    '/tokens',
    {
      schema: { body: tokenCreateSchema, response: { 201: createdTokenSchema, ...errorResponses(400, 413, 415) } },
      preValidation: requireJsonBody,
    },
    async (request, reply): Promise<CreatedApiTokenInfo> => {
      const created = tokens.create(request.body.name);
      changes.emit('tokens');
      reply.code(201);
      return { ...created, last_used_at: null };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/tokens/:id',
    { schema: { params: idParamsSchema, response: { 204: { description: 'revoked' }, ...errorResponses(404) } } },
    async (request, reply) => {
      if (!tokens.revoke(request.params.id)) throw new HostError(404, ErrorCode.TOKEN_NOT_FOUND, `no token ${request.params.id}`);
      changes.emit('tokens');
      return reply.code(204).send();
    },
  );
};
