import type { FastifyPluginAsync } from 'fastify';
import type { InboxList } from '../../../shared/control-api.js';
import { errorResponses } from '../../server/schemas.js';
import type { ControlContext } from '../context.js';
import { decodeCursor, keysetPage, pageLimit } from '../paging.js';
import { inboxQuerySchema, inboxSchema } from '../schemas.js';

export type InboxRoutesOptions = Pick<ControlContext, 'queries' | 'registry'>;

/** Cards per page of the inbox: each carries a generated form, so pages stay small. */
export const INBOX_PAGE = 50;
const MAX_INBOX_PAGE = 200;

interface InboxQuery {
  limit?: string;
  cursor?: string;
}

/** `GET /api/inbox?limit=&cursor=`: the tasks waiting for an answer, newest first, a page at a time. */
export const inboxRoutes: FastifyPluginAsync<InboxRoutesOptions> = async (app, { queries, registry }) => {
  app.get<{ Querystring: InboxQuery }>(
    '/inbox',
    { schema: { querystring: inboxQuerySchema, response: { 200: inboxSchema, ...errorResponses(400) } } },
    async (request): Promise<InboxList> => {
      const limit = pageLimit(request.query.limit, INBOX_PAGE, MAX_INBOX_PAGE);
      const before = decodeCursor(request.query.cursor);
      const page = keysetPage(limit, (count) => queries.waitingTasks(count, before), (record) => record.seq);
      const items = page.rows.map((record) => ({
        task: record.task,
        agent_slug: record.agentSlug,
        // An agent whose plugin is gone since the task was made is still named, by its slug.
        agent_display_name: registry.get(record.agentSlug)?.manifest.display_name ?? record.agentSlug,
      }));
      const total = before === undefined && page.nextCursor === undefined ? items.length : queries.countTasks({ statuses: ['INPUT_REQUIRED'], agents: [] });
      const result: InboxList = { items, total };
      if (page.nextCursor !== undefined) result.next_cursor = page.nextCursor;
      return result;
    },
  );
};
