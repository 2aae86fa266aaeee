import type { FastifyPluginAsync } from 'fastify';
import type { InboxList } from '../../../shared/control-api.js';
import { errorResponses } from '../../server/schemas.js';
import type { ControlContext } from '../context.js';
import { inboxSchema } from '../schemas.js';

export type InboxRoutesOptions = Pick<ControlContext, 'store' | 'registry'>;

/** `GET /api/inbox`: every task waiting for an answer, newest first. */
export const inboxRoutes: FastifyPluginAsync<InboxRoutesOptions> = async (app, { store, registry }) => {
  app.get('/inbox', { schema: { response: { 200: inboxSchema, ...errorResponses() } } }, async (): Promise<InboxList> => {
    const items = store
      .tasksInStatus('INPUT_REQUIRED')
      .reverse()
      .map((record) => ({
        task: record.task,
        agent_slug: record.agentSlug,
        // An agent whose plugin is gone since the task was made is still named, by its slug.
        agent_display_name: registry.get(record.agentSlug)?.manifest.display_name ?? record.agentSlug,
      }));
    return { items };
  });
};
