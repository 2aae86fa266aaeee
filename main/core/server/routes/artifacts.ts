import type { FastifyPluginAsync } from 'fastify';
import type { AgentDirectory } from '../../agents/loaded-agent.js';
import type { TaskService } from '../../tasks/task-service.js';
import { sendArtifactContent } from '../artifact-content.js';
import { artifactContentSchema, artifactParamsSchema, errorResponses } from '../schemas.js';
import { findAgent } from './agent-lookup.js';

export interface ArtifactRoutesOptions {
  agents: AgentDirectory;
  tasks: TaskService;
  /** Folder that `file` artifacts' paths are relative to. */
  artifactsRoot: string;
}

interface ArtifactParams {
  slug: string;
  id: string;
}

/** `GET|HEAD {base}/artifacts/{id}/content`: file bytes, or the content of the other types. */
export const artifactRoutes: FastifyPluginAsync<ArtifactRoutesOptions> = async (app, options) => {
  const { agents, tasks, artifactsRoot } = options;

  app.route<{ Params: ArtifactParams }>({
    method: ['GET', 'HEAD'],
    url: '/agents/:slug/artifacts/:id/content',
    schema: {
      params: artifactParamsSchema,
      response: {
        200: artifactContentSchema,
        206: artifactContentSchema,
        304: artifactContentSchema,
        ...errorResponses(404, 412, 416),
      },
    },
    handler: async (request, reply) => {
      findAgent(agents, request.params.slug);
      const record = tasks.artifact(request.params.slug, request.params.id);
      // Files are downloads for orchestrators; the other types are their content, shown as text.
      return sendArtifactContent(request, reply, { artifactsRoot, record, attachment: record.artifact.type === 'file' });
    },
  });
};
