import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../../shared/error-codes.js';
import { isTerminal } from '../../../shared/task-states.js';
import type { AgentDirectory } from '../../agents/loaded-agent.js';
import type { HostConfig } from '../../config/host-config.js';
import { HostError } from '../../host-error.js';
import type { TaskService } from '../../tasks/task-service.js';
import { errorResponses, taskParamsSchema } from '../schemas.js';
import { SSE_HEADERS, SseWriter } from '../sse/sse-writer.js';
import { TaskStream } from '../sse/task-stream.js';
import { findAgent } from './agent-lookup.js';

export interface StreamRoutesOptions {
  agents: AgentDirectory;
  tasks: TaskService;
  /**
   * `sse_ping_ms` (idle time before a ping) and `sse_max_buffer_bytes` (what a subscriber may
   * have waiting before it is dropped), read for each new stream: settings may change live.
   */
  config: Pick<HostConfig['server'], 'sse_ping_ms' | 'sse_max_buffer_bytes'>;
}

/** The `retry:` hint: how long EventSource clients wait before reconnecting. */
export const SSE_RETRY_MS = 2000;

interface StreamRequest {
  Params: { slug: string; id: string };
  Querystring: { last_event_id?: string };
  Headers: { 'last-event-id'?: string };
}

/** A task_events id: digits, few enough to stay an exact Number. */
const EVENT_ID = { type: 'string', pattern: '^[0-9]{1,15}$' } as const;

const streamHeadersSchema = {
  type: 'object',
  properties: { 'last-event-id': EVENT_ID },
} as const;

/** Other query keys are ignored rather than refused: EventSource polyfills add cache-busters. */
const streamQuerySchema = {
  type: 'object',
  properties: { last_event_id: EVENT_ID },
} as const;

/**
 * A 200 has no JSON schema: its body is `text/event-stream`, written on the hijacked response
 * by TaskStream, never serialized by Fastify.
 */
const eventStreamResponse = { description: 'text/event-stream: status, log, artifact.update and ping events' } as const;
const noMoreEventsResponse = { description: 'the task is over and the client has had its final status event' } as const;

/** Where to resume. The header wins: on reconnect, EventSource sends the newer id in it while the URL keeps the old query. */
function resumeAfter(request: FastifyRequest<StreamRequest>): number {
  const raw = request.headers['last-event-id'] ?? request.query.last_event_id;
  return raw === undefined ? 0 : Number(raw);
}

/** The headers the request's hooks set (CORS for allowed origins, nosniff), plus the stream's own. */
export function streamHeaders(reply: FastifyReply): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) headers[name] = value;
  }
  return { ...headers, ...SSE_HEADERS };
}

/** `GET {base}/tasks/{id}/stream`: the task's events as server-sent events. */
export const streamRoutes: FastifyPluginAsync<StreamRoutesOptions> = async (app, options) => {
  const { agents, tasks, config } = options;
  const open = new Set<TaskStream>();
  let closing = false;

  // Open streams never end on their own while a task runs: end them, or the server's close waits.
  app.addHook('preClose', async () => {
    closing = true;
    for (const stream of [...open]) stream.close();
  });

  app.route<StreamRequest>({
    method: ['GET', 'HEAD'],
    url: '/agents/:slug/tasks/:id/stream',
    schema: {
      params: taskParamsSchema,
      headers: streamHeadersSchema,
      querystring: streamQuerySchema,
      response: { 200: eventStreamResponse, 204: noMoreEventsResponse, ...errorResponses(400, 404) },
    },
    handler: async (request, reply) => {
      const { slug, id } = request.params;
      findAgent(agents, slug);
      const task = tasks.get(slug, id);
      if (closing) throw new HostError(503, ErrorCode.SHUTTING_DOWN, 'the server is shutting down');
      const afterId = resumeAfter(request);
      const finalEventId = isTerminal(task.status) ? tasks.lastStatusEventId(id) : undefined;
      if (finalEventId !== undefined && afterId >= finalEventId) {
        // Nothing will ever follow: 204 is what makes an EventSource stop reconnecting.
        return reply.code(204).send();
      }
      if (request.method === 'HEAD') return reply.code(200).headers(SSE_HEADERS).send();

      // From here on the response is ours: the errors contract no longer applies.
      reply.hijack();
      const writer = new SseWriter(reply.raw, config.sse_max_buffer_bytes);
      writer.start(streamHeaders(reply), SSE_RETRY_MS);
      const stream = new TaskStream({
        source: tasks,
        taskId: id,
        afterId,
        writer,
        pingMs: config.sse_ping_ms,
        logger: request.log,
        onEnd: () => open.delete(stream),
      });
      open.add(stream);
      // start() handles its own failures (logs, drops the connection).
      void stream.start();
      return reply;
    },
  });
};
