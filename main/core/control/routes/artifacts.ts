import { resolve } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { ArtifactListItem, ArtifactListPage } from '../../../shared/control-api.js';
import { ErrorCode } from '../../../shared/error-codes.js';
import { HostError } from '../../host-error.js';
import { sendArtifactContent } from '../../server/artifact-content.js';
import { artifactContentSchema, errorResponses } from '../../server/schemas.js';
import { toWireArtifact } from '../../tasks/task-service.js';
import type { ControlContext } from '../context.js';
import { decodeCursor, keysetPage, pageLimit } from '../paging.js';
import { artifactContentQuerySchema, artifactListPageSchema, artifactListQuerySchema, idParamsSchema } from '../schemas.js';
import { a2aAgentUrl } from '../views.js';

export type ArtifactRoutesOptions = Pick<ControlContext, 'store' | 'queries' | 'a2aUrl' | 'layout'>;

const MAX_PAGE = 500;

interface ListQuery {
  agent?: string;
  task?: string;
  limit?: string;
  cursor?: string;
}

/** Every task's artifacts, newest first, and their content for the UI's previews and downloads. */
export const artifactRoutes: FastifyPluginAsync<ArtifactRoutesOptions> = async (app, { store, queries, a2aUrl, layout }) => {
  app.get<{ Querystring: ListQuery }>(
    '/artifacts',
    { schema: { querystring: artifactListQuerySchema, response: { 200: artifactListPageSchema, ...errorResponses(400) } } },
    async (request): Promise<ArtifactListPage> => {
      const { agent, task } = request.query;
      const filter = { ...(agent !== undefined ? { agent } : {}), ...(task !== undefined ? { task } : {}) };
      const limit = pageLimit(request.query.limit, 100, MAX_PAGE);
      const before = decodeCursor(request.query.cursor);
      const page = keysetPage(limit, (count) => queries.listArtifacts(filter, count, before), (row) => row.key);
      const artifacts = page.rows.map((row): ArtifactListItem => {
        const item: ArtifactListItem = {
          artifact: toWireArtifact(row.record, a2aAgentUrl(a2aUrl, row.agentSlug)),
          agent_slug: row.agentSlug,
          task_status: row.taskStatus,
        };
        if (row.record.filePath !== undefined) item.path = resolve(layout.artifacts, row.record.filePath);
        return item;
      });
      const result: ArtifactListPage = { artifacts };
      if (page.nextCursor !== undefined) result.next_cursor = page.nextCursor;
      return result;
    },
  );

  app.route<{ Params: { id: string }; Querystring: { download?: string } }>({
    method: ['GET', 'HEAD'],
    url: '/artifacts/:id/content',
    schema: {
      params: idParamsSchema,
      querystring: artifactContentQuerySchema,
      response: {
        200: artifactContentSchema,
        206: artifactContentSchema,
        304: artifactContentSchema,
        ...errorResponses(400, 404, 412, 416),
      },
    },
    handler: async (request, reply) => {
      const record = store.getArtifact(request.params.id);
      if (!record) throw new HostError(404, ErrorCode.ARTIFACT_NOT_FOUND, `no artifact ${request.params.id}`);
      const download = request.query.download === '1' || request.query.download === 'true';
      return sendArtifactContent(request, reply, { artifactsRoot: layout.artifacts, record, attachment: download });
    },
  });
};
