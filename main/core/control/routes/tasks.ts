import type { FastifyPluginAsync } from 'fastify';
import type { AnswerRequest, TaskDetail, TaskEventsPage, TaskListPage } from '../../../shared/control-api.js';
import { ErrorCode } from '../../../shared/error-codes.js';
import { TASK_STATUSES, type Task, type TaskStatus } from '../../../shared/protocol.js';
import { HostError } from '../../host-error.js';
import { emptyBodyAsObject, requireJsonBody } from '../../server/json-body.js';
import { cancelBodySchema, errorResponses, taskSchema } from '../../server/schemas.js';
import type { TaskRecord } from '../../store/task-store.js';
import { toWireArtifact } from '../../tasks/task-service.js';
import type { ControlContext } from '../context.js';
import { decodeCursor, keysetPage, listParam, pageLimit } from '../paging.js';
import {
  inputBodySchema,
  taskDetailSchema,
  taskEventsPageSchema,
  taskEventsQuerySchema,
  idParamsSchema,
  taskListPageSchema,
  taskListQuerySchema,
} from '../schemas.js';
import { a2aAgentUrl, toDeliverySummary, toTaskSummary } from '../views.js';

export type TaskRoutesOptions = Pick<ControlContext, 'store' | 'queries' | 'tasks' | 'deliveries' | 'a2aUrl'>;

/** Events in the detail view; older ones page in through the events endpoint. */
export const DETAIL_EVENTS = 500;
const MAX_PAGE = 500;
const MAX_EVENTS_PAGE = 1000;

interface ListQuery {
  status?: string | string[];
  agent?: string | string[];
  q?: string;
  limit?: string;
  cursor?: string;
}
interface IdParams {
  id: string;
}
interface EventsQuery {
  before?: string;
  after?: string;
  limit?: string;
}

function statusesOf(raw: string | string[] | undefined): TaskStatus[] {
  const values = listParam(raw);
  const unknown = values.filter((value) => !(TASK_STATUSES as readonly string[]).includes(value));
  if (unknown.length > 0) {
    throw new HostError(400, ErrorCode.BAD_REQUEST, `unknown status ${unknown.join(', ')}; use ${TASK_STATUSES.join(', ')}`);
  }
  return values as TaskStatus[];
}

/** The task list, a task's detail and event log, and answering and cancelling from the desk. */
export const taskRoutes: FastifyPluginAsync<TaskRoutesOptions> = async (app, options) => {
  const { store, queries, tasks, deliveries, a2aUrl } = options;

  const recordOf = (taskId: string): TaskRecord => {
    const record = store.getRecord(taskId);
    if (!record) throw new HostError(404, ErrorCode.TASK_NOT_FOUND, `no task ${taskId}`);
    return record;
  };

  app.get<{ Querystring: ListQuery }>(
    '/tasks',
    { schema: { querystring: taskListQuerySchema, response: { 200: taskListPageSchema, ...errorResponses(400) } } },
    async (request): Promise<TaskListPage> => {
      const query = request.query;
      const filter = { statuses: statusesOf(query.status), agents: listParam(query.agent), q: query.q?.trim() };
      const limit = pageLimit(query.limit, 100, MAX_PAGE);
      const before = decodeCursor(query.cursor);
      const page = keysetPage(limit, (count) => queries.listTasks(filter, count, before), (row) => row.seq);
      // A first page that holds every match already knows the total: a search then scans once.
      const total = before === undefined && page.nextCursor === undefined ? page.rows.length : queries.countTasks(filter);
      const result: TaskListPage = { tasks: page.rows.map(toTaskSummary), total };
      if (page.nextCursor !== undefined) result.next_cursor = page.nextCursor;
      return result;
    },
  );

  app.get<{ Params: IdParams }>(
    '/tasks/:id',
    { schema: { params: idParamsSchema, response: { 200: taskDetailSchema, ...errorResponses(404) } } },
    async (request): Promise<TaskDetail> => {
      const record = recordOf(request.params.id);
      const taskId = record.task.task_id;
      const agentUrl = a2aAgentUrl(a2aUrl, record.agentSlug);
      const { events, moreBefore } = queries.eventsBefore(taskId, DETAIL_EVENTS);
      return {
        task: record.task,
        agent_slug: record.agentSlug,
        agent_url: agentUrl,
        artifacts: store.listArtifacts(taskId).map((artifact) => toWireArtifact(artifact, agentUrl)),
        deliveries: deliveries.listForTask(taskId).map(toDeliverySummary),
        events,
        more_events_before: moreBefore,
      };
    },
  );

  app.get<{ Params: IdParams; Querystring: EventsQuery }>(
    '/tasks/:id/events',
    {
      schema: {
        params: idParamsSchema,
        querystring: taskEventsQuerySchema,
        response: { 200: taskEventsPageSchema, ...errorResponses(400, 404) },
      },
    },
    async (request): Promise<TaskEventsPage> => {
      const taskId = recordOf(request.params.id).task.task_id;
      const { before, after } = request.query;
      const limit = pageLimit(request.query.limit, DETAIL_EVENTS, MAX_EVENTS_PAGE);
      const beforeId = before === undefined ? undefined : Number(before);
      // `after` reads forwards (catching up); otherwise the newest events before `before`.
      const page =
        after === undefined
          ? queries.eventsBefore(taskId, limit, beforeId)
          : queries.eventsAfter(taskId, Number(after), limit, beforeId);
      return { events: page.events, more_before: page.moreBefore };
    },
  );

  app.post<{ Params: IdParams; Body: AnswerRequest }>(
    '/tasks/:id/answer',
    {
      schema: { params: idParamsSchema, body: inputBodySchema, response: { 200: taskSchema, ...errorResponses(400, 404, 409, 413, 415) } },
      preValidation: requireJsonBody,
    },
    async (request): Promise<Task> => {
      const record = recordOf(request.params.id);
      return tasks.answer(record.agentSlug, record.task.task_id, request.body.input);
    },
  );

  app.post<{ Params: IdParams }>(
    '/tasks/:id/cancel',
    {
      schema: { params: idParamsSchema, body: cancelBodySchema, response: { 200: taskSchema, ...errorResponses(400, 404, 409, 413, 415) } },
      preValidation: emptyBodyAsObject,
    },
    async (request): Promise<Task> => {
      const record = recordOf(request.params.id);
      return tasks.cancel(record.agentSlug, record.task.task_id);
    },
  );
};
