import type { FastifyPluginAsync } from 'fastify';
import type { AgentInfo, AgentList, AgentSettingsPatch, CreateTaskRequest } from '../../../shared/control-api.js';
import { ErrorCode } from '../../../shared/error-codes.js';
import type { Task } from '../../../shared/protocol.js';
import type { LoadedAgent } from '../../agents/loaded-agent.js';
import { HostError } from '../../host-error.js';
import { requireJsonBody } from '../../server/json-body.js';
import { findEnabledAgent } from '../../server/routes/agent-lookup.js';
import { agentParamsSchema, errorResponses, taskSchema } from '../../server/schemas.js';
import { updateAgentSettings } from '../agent-settings.js';
import type { ControlContext } from '../context.js';
import { agentInfoSchema, agentListSchema, agentPatchSchema, inputBodySchema } from '../schemas.js';
import { toAgentInfo } from '../views.js';

export type AgentRoutesOptions = Pick<
  ControlContext,
  'config' | 'layout' | 'registry' | 'runtime' | 'changes' | 'queries' | 'tasks' | 'a2aUrl' | 'isShuttingDown'
>;

interface SlugParams {
  slug: string;
}

/** The agents page: every loaded agent (enabled or not) and skipped plugin, settings, and try-it. */
export const agentRoutes: FastifyPluginAsync<AgentRoutesOptions> = async (app, options) => {
  const { registry, runtime, queries, tasks, a2aUrl } = options;
  const info = (agent: LoadedAgent): AgentInfo =>
    toAgentInfo(agent, a2aUrl, { running: runtime.runningCount(agent.slug), queued: queries.queuedCount(agent.slug) });

  app.get('/agents', { schema: { response: { 200: agentListSchema, ...errorResponses() } } }, async (): Promise<AgentList> => ({
    agents: registry.list().map(info),
    load_errors: registry.errors().map((error) => ({ ...error })),
  }));

  app.patch<{ Params: SlugParams; Body: AgentSettingsPatch }>(
    '/agents/:slug',
    {
      schema: { params: agentParamsSchema, body: agentPatchSchema, response: { 200: agentInfoSchema, ...errorResponses(400, 404, 409, 413, 415) } },
      preValidation: requireJsonBody,
    },
    async (request): Promise<AgentInfo> => info(updateAgentSettings(options, request.params.slug, request.body)),
  );

  // Try-it: the same rules as an orchestrator's create (enabled agent, input schema, not stopping).
  app.post<{ Params: SlugParams; Body: CreateTaskRequest }>(
    '/agents/:slug/tasks',
    {
      schema: { params: agentParamsSchema, body: inputBodySchema, response: { 202: taskSchema, ...errorResponses(400, 404, 413, 415) } },
      preValidation: requireJsonBody,
    },
    async (request, reply): Promise<Task> => {
      const agent = findEnabledAgent(registry, request.params.slug);
      if (options.isShuttingDown()) throw new HostError(503, ErrorCode.SHUTTING_DOWN, 'the host is shutting down and accepts no new tasks');
      const task = tasks.create(agent, { input: request.body.input });
      reply.code(202);
      return task;
    },
  );
};
