import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../../shared/error-codes.js';
import { HostError } from '../../host-error.js';
import { SSE_RETRY_MS, streamHeaders } from '../../server/routes/stream.js';
import { errorResponses } from '../../server/schemas.js';
import { SSE_HEADERS, SseWriter } from '../../server/sse/sse-writer.js';
import type { TaskQueries } from '../../store/task-queries.js';
import type { HostChanges } from '../../host-changes.js';
import { ControlEventHub, type ControlEventHubOptions } from '../event-hub.js';
import { ControlStream } from '../event-stream.js';
import { digits } from '../schemas.js';

export interface EventRoutesOptions {
  /** Committed task events (TaskStore.onEvent). */
  onEvent: ControlEventHubOptions['onEvent'];
  changes: HostChanges;
  queries: TaskQueries;
  /** `server.sse_ping_ms` and `server.sse_max_buffer_bytes`, shared with the A2A streams. */
  pingMs: number;
  maxBufferBytes: number;
}

interface EventsRequest {
  Querystring: { last_event_id?: string };
  Headers: { 'last-event-id'?: string };
}

/** The header wins: on reconnect EventSource sends the newer id in it, while the URL keeps the old query. */
function resumeAfter(request: FastifyRequest<EventsRequest>): number | undefined {
  const raw = request.headers['last-event-id'] ?? request.query.last_event_id;
  return raw === undefined ? undefined : Number(raw);
}

/** `GET /api/events`: the UI's one live stream (see ControlStream). */
export const eventRoutes: FastifyPluginAsync<EventRoutesOptions> = async (app, options) => {
  const { queries, pingMs, maxBufferBytes } = options;
  const hub = new ControlEventHub({ onEvent: options.onEvent, changes: options.changes, agentOf: (taskId) => queries.agentOf(taskId) });
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    hub.close();
  });

  app.get<EventsRequest>(
    '/events',
    {
      schema: {
        headers: { type: 'object', properties: { 'last-event-id': digits } },
        querystring: { type: 'object', properties: { last_event_id: digits } },
        response: { 200: { description: 'text/event-stream: task, changed, reset and ping events' }, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      if (closing) throw new HostError(503, ErrorCode.SHUTTING_DOWN, 'the server is shutting down');
      if (request.method === 'HEAD') return reply.code(200).headers(SSE_HEADERS).send();
      // From here on the response is the stream's: the JSON error contract no longer applies.
      reply.hijack();
      const writer = new SseWriter(reply.raw, maxBufferBytes);
      writer.start(streamHeaders(reply), SSE_RETRY_MS);
      const stream = new ControlStream({
        log: queries,
        afterId: resumeAfter(request),
        writer,
        pingMs,
        logger: request.log,
        onEnd: () => hub.detach(stream),
      });
      hub.attach(stream);
      // start() handles its own failures (logs, drops the connection).
      void stream.start();
      return reply;
    },
  );
};
