import type { FastifyPluginAsync } from 'fastify';
import type { IntakePatch, IntakeState } from '../../../shared/control-api.js';
import { requireJsonBody } from '../../server/json-body.js';
import { errorResponses } from '../../server/schemas.js';
import type { ControlContext } from '../context.js';
import { asRequestError } from '../saved-config.js';
import { intakePatchSchema, intakeStateSchema } from '../schemas.js';

export type IntakeRoutesOptions = Pick<ControlContext, 'intake'>;

/** `GET` and `PUT /api/intake`: whether the A2A server takes new tasks (see Intake). */
export const intakeRoutes: FastifyPluginAsync<IntakeRoutesOptions> = async (app, { intake }) => {
  app.get('/intake', { schema: { response: { 200: intakeStateSchema, ...errorResponses() } } }, async (): Promise<IntakeState> => intake.state());

  app.put<{ Body: IntakePatch }>(
    '/intake',
    {
      schema: { body: intakePatchSchema, response: { 200: intakeStateSchema, ...errorResponses(400, 409, 413, 415) } },
      preValidation: requireJsonBody,
    },
    // A config.json broken by hand is a 409 CONFIG_INVALID, and intake stays as it was.
    async (request): Promise<IntakeState> => asRequestError(() => intake.setPaused(request.body.paused)),
  );
};
