import type { FastifyPluginAsync } from 'fastify';
import type { SettingsInfo, SettingsPatch } from '../../../shared/control-api.js';
import { requireJsonBody } from '../../server/json-body.js';
import { errorResponses } from '../../server/schemas.js';
import type { ControlContext } from '../context.js';
import { HostSettings } from '../host-settings.js';
import { settingsInfoSchema, settingsPatchSchema } from '../schemas.js';

export type SettingsRoutesOptions = Pick<ControlContext, 'config' | 'layout' | 'changes' | 'retention'>;

/** `GET` and `PATCH /api/settings` (see HostSettings). */
export const settingsRoutes: FastifyPluginAsync<SettingsRoutesOptions> = async (app, options) => {
  const settings = new HostSettings(options);

  app.get('/settings', { schema: { response: { 200: settingsInfoSchema, ...errorResponses(409) } } }, async (): Promise<SettingsInfo> => settings.get());

  app.patch<{ Body: SettingsPatch }>(
    '/settings',
    {
      schema: { body: settingsPatchSchema, response: { 200: settingsInfoSchema, ...errorResponses(400, 409, 413, 415) } },
      preValidation: requireJsonBody,
    },
    async (request): Promise<SettingsInfo> => settings.patch(request.body),
  );
};
