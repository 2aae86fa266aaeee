import type { FastifyPluginAsync } from 'fastify';
import type { DeliveryAttemptList, DeliveryListPage, DeliverySummary } from '../../../shared/control-api.js';
import { ErrorCode } from '../../../shared/error-codes.js';
import { HostError } from '../../host-error.js';
import type { Delivery, DeliveryState } from '../../notify/delivery-types.js';
import { emptyBodyAsObject } from '../../server/json-body.js';
import { cancelBodySchema as emptyBodySchema, errorResponses } from '../../server/schemas.js';
import type { ControlContext } from '../context.js';
import { decodeCursor, keysetPage, pageLimit } from '../paging.js';
import { deliveryAttemptsSchema, deliveryListPageSchema, deliveryListQuerySchema, idParamsSchema, deliverySummarySchema } from '../schemas.js';
import { toDeliveryAttempt, toDeliverySummary } from '../views.js';

export type DeliveryRoutesOptions = Pick<ControlContext, 'deliveries' | 'changes'>;

const MAX_PAGE = 500;

interface ListQuery {
  task?: string;
  state?: DeliveryState;
  limit?: string;
  cursor?: string;
}

/** Webhook deliveries: the list (newest first), one delivery's attempts, and redelivery. */
export const deliveryRoutes: FastifyPluginAsync<DeliveryRoutesOptions> = async (app, { deliveries, changes }) => {
  const notFound = (raw: string): HostError => new HostError(404, ErrorCode.DELIVERY_NOT_FOUND, `no delivery ${raw}`);
  /** Any id string is accepted: one that is not a delivery's number is simply unknown (404). */
  const idOf = (raw: string): number => {
    if (!/^[0-9]{1,15}$/.test(raw)) throw notFound(raw);
    return Number(raw);
  };

  app.get<{ Querystring: ListQuery }>(
    '/deliveries',
    { schema: { querystring: deliveryListQuerySchema, response: { 200: deliveryListPageSchema, ...errorResponses(400) } } },
    async (request): Promise<DeliveryListPage> => {
      const { task, state } = request.query;
      const limit = pageLimit(request.query.limit, 100, MAX_PAGE);
      const before = decodeCursor(request.query.cursor) ?? Number.MAX_SAFE_INTEGER;
      const fetch = (count: number): Delivery[] =>
        task === undefined
          ? deliveries.list({ limit: count, beforeId: before, ...(state !== undefined ? { state } : {}) })
          : // A task has a handful of deliveries (its status changes × endpoints): filter them here.
            deliveries
              .listForTask(task)
              .filter((delivery) => delivery.id < before && (state === undefined || delivery.state === state))
              .reverse()
              .slice(0, count);
      const page = keysetPage(limit, fetch, (delivery) => delivery.id);
      const result: DeliveryListPage = { deliveries: page.rows.map(toDeliverySummary) };
      if (page.nextCursor !== undefined) result.next_cursor = page.nextCursor;
      return result;
    },
  );

  app.get<{ Params: { id: string } }>(
    '/deliveries/:id/attempts',
    { schema: { params: idParamsSchema, response: { 200: deliveryAttemptsSchema, ...errorResponses(404) } } },
    async (request): Promise<DeliveryAttemptList> => {
      const id = idOf(request.params.id);
      if (!deliveries.get(id)) throw notFound(request.params.id);
      return { attempts: deliveries.attempts(id).map(toDeliveryAttempt) };
    },
  );

  app.post<{ Params: { id: string } }>(
    '/deliveries/:id/redeliver',
    {
      schema: { params: idParamsSchema, body: emptyBodySchema, response: { 200: deliverySummarySchema, ...errorResponses(400, 404, 409, 413, 415) } },
      preValidation: emptyBodyAsObject,
    },
    async (request): Promise<DeliverySummary> => {
      const id = idOf(request.params.id);
      const result = deliveries.redeliver(id);
      if (!result.ok) {
        if (result.reason === 'not-found') throw notFound(request.params.id);
        throw new HostError(409, ErrorCode.INVALID_STATE, `delivery ${id} is still pending: it is being delivered`);
      }
      changes.emit('deliveries');
      return toDeliverySummary(result.delivery);
    },
  );
};
