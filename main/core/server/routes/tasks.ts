import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../../shared/error-codes.js';
import type { Artifact, JsonObject, Task } from '../../../shared/protocol.js';
import type { AgentDirectory } from '../../agents/loaded-agent.js';
import { HostError } from '../../host-error.js';
import { type CreateTaskRequest, type TaskService, toWireArtifact } from '../../tasks/task-service.js';
import { emptyBodyAsObject, requireJsonBody } from '../json-body.js';
import {
  answerBodySchema,
  artifactListSchema,
  cancelBodySchema,
  createTaskBodySchema,
  createTaskHeadersSchema,
  agentParamsSchema,
  errorResponses,
  taskParamsSchema,
  taskSchema,
} from '../schemas.js';
import { agentBaseUrl } from '../urls.js';
import { findAgent, findEnabledAgent } from './agent-lookup.js';

export interface TaskRoutesOptions {
  agents: AgentDirectory;
  tasks: TaskService;
  isShuttingDown: () => boolean;
}

interface AgentParams {
  slug: string;
}
interface TaskParams {
  slug: string;
  id: string;
}

/** The task endpoints of the protocol (plus the `input` extension), under `/agents/{slug}`. */
export const taskRoutes: FastifyPluginAsync<TaskRoutesOptions> = async (app, { agents, tasks, isShuttingDown }) => {
  // Unknown agents are refused before a body is read or validated.
  app.addHook('onRequest', async (request: FastifyRequest<{ Params: Partial<AgentParams> }>) => {
    if (request.params.slug !== undefined) findAgent(agents, request.params.slug);
  });

  /** Checked before the body is read and again when creating, as either may change meanwhile. */
  const refuseNewTasks = (slug: string): void => {
    findEnabledAgent(agents, slug);
    if (isShuttingDown()) {
      throw new HostError(503, ErrorCode.SHUTTING_DOWN, 'the host is shutting down and accepts no new tasks');
    }
  };

  app.post<{ Params: AgentParams; Body: CreateTaskRequest; Headers: { 'idempotency-key'?: string } }>(
    '/agents/:slug/tasks',
    {
      schema: {
        params: agentParamsSchema,
        headers: createTaskHeadersSchema,
        body: createTaskBodySchema,
        response: { 202: taskSchema, ...errorResponses(400, 404, 409, 413, 415) },
      },
      onRequest: async (request: FastifyRequest<{ Params: AgentParams }>) => {
        refuseNewTasks(request.params.slug);
        // Paused intake refuses at once, unless an Idempotency-Key may name a task accepted
        // before the pause: the service answers that one once the body is read (see create).
        if (request.headers['idempotency-key'] === undefined) tasks.assertIntakeOpen();
      },
      preValidation: requireJsonBody,
    },
    async (request, reply) => {
      refuseNewTasks(request.params.slug);
      const agent = findEnabledAgent(agents, request.params.slug);
      const task = tasks.create(agent, request.body, request.headers['idempotency-key']);
      reply.code(202).header('location', `${agentBaseUrl(request, agent.slug)}/tasks/${task.task_id}`);
      return task;
    },
  );

  app.get<{ Params: TaskParams }>(
    '/agents/:slug/tasks/:id',
    { schema: { params: taskParamsSchema, response: { 200: taskSchema, ...errorResponses(404) } } },
    async (request): Promise<Task> => tasks.get(request.params.slug, request.params.id),
  );

  app.post<{ Params: TaskParams; Body: Record<string, never> }>(
    '/agents/:slug/tasks/:id/cancel',
    {
      schema: {
        params: taskParamsSchema,
        body: cancelBodySchema,
        response: { 202: taskSchema, ...errorResponses(400, 404, 409, 413, 415) },
      },
      preValidation: emptyBodyAsObject,
    },
    async (request, reply): Promise<Task> => {
      const task = tasks.cancel(request.params.slug, request.params.id);
      reply.code(202);
      return task;
    },
  );

  app.post<{ Params: TaskParams; Body: { input: JsonObject } }>(
    '/agents/:slug/tasks/:id/input',
    {
      schema: {
        params: taskParamsSchema,
        body: answerBodySchema,
        response: { 200: taskSchema, ...errorResponses(400, 404, 409, 413, 415) },
      },
      preValidation: requireJsonBody,
    },
    async (request): Promise<Task> => tasks.answer(request.params.slug, request.params.id, request.body.input),
  );

  app.get<{ Params: TaskParams }>(
    '/agents/:slug/tasks/:id/artifacts',
    { schema: { params: taskParamsSchema, response: { 200: artifactListSchema, ...errorResponses(404) } } },
    async (request): Promise<{ artifacts: Artifact[] }> => {
      const { slug, id } = request.params;
      const base = agentBaseUrl(request, slug);
      return { artifacts: tasks.artifacts(slug, id).map((record) => toWireArtifact(record, base)) };
    },
  );
};
