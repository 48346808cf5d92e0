// Webhook endpoints (secret key): manage webhooks, read their delivery log and dead letters, and ask
// for redelivery. Each project environment (test, live) has its own webhooks and gets its own events.
import { BadRequest } from '../../http/errors';
import { readDatetime, readEnum, readList } from '../../http/params';
import type { Route } from '../../http/route';
import { ranges, readAfterId, readBeforeId, readDateRange, readLimit, readOrder } from '../../api/list-query';
import { publicDeadLetter, publicDelivery, publicWebhook } from './webhook-docs';
import { readWebhookFields } from './webhook-input';
import { MAX_REDELIVER_EVENTS, type WebhookService } from './webhook-service';

const MAX_IDS = 100;

function readIds(raw: unknown, param: string): string[] | undefined {
  const ids = readList(raw, param);
  if (ids && ids.length > MAX_IDS) throw new BadRequest(param, `${param} can hold at most ${MAX_IDS} ids`);
  return ids;
}

export function webhookRoutes(service: WebhookService): Route[] {
  const rate = { name: 'webhooks', perSecond: 10 };
  return [
    {
      method: 'GET', path: '/v1/webhooks', auth: 'secret', rate,
      handler: async ({ scope }) => ({ meta: { hasMore: false }, body: { webhooks: (await service.list(scope)).map(publicWebhook) } }),
    },
    {
      method: 'POST', path: '/v1/webhooks', auth: 'secret', rate,
      handler: async ({ scope, body, now }) => ({ body: { webhook: publicWebhook(await service.create(scope, readWebhookFields(body, true), now)) } }),
    },
    {
      method: 'GET', path: '/v1/webhooks/:id', auth: 'secret', rate,
      handler: async ({ scope, params }) => ({ body: { webhook: publicWebhook(await service.get(scope, params.id)) } }),
    },
    {
      method: 'PATCH', path: '/v1/webhooks/:id', auth: 'secret', rate,
      handler: async ({ scope, params, body, now }) => ({
        body: { webhook: publicWebhook(await service.update(scope, params.id, readWebhookFields(body, false), now)) },
      }),
    },
    {
      method: 'DELETE', path: '/v1/webhooks/:id', auth: 'secret', rate,
      handler: async ({ scope, params, now }) => {
        await service.remove(scope, params.id, now);
        return {};
      },
    },
    {
      method: 'POST', path: '/v1/webhooks/:id/token', auth: 'secret', rate,
      handler: async ({ scope, params, now }) => ({ body: { webhook: publicWebhook(await service.rotateToken(scope, params.id, now)) } }),
    },
    {
      // What waits for this endpoint: counted through the outbox's (webhookId, state) index, bounded.
      method: 'GET', path: '/v1/webhooks/:id/queue', auth: 'secret', rate,
      handler: async ({ scope, params }) => ({ body: { queue: await service.queue(scope, params.id) } }),
    },
    {
      // The delivery log, newest first: one entry per attempt (and per expiry).
      method: 'GET', path: '/v1/webhooks/:id/deliveries', auth: 'secret', rate,
      handler: async ({ scope, params, query }) => {
        const outcome = readEnum(query.outcome, 'outcome', ['delivered', 'retry', 'dead', 'expired'] as const);
        const { entries, hasMore } = await service.deliveries(scope, params.id, {
          limit: readLimit(query, 1000, 100), ranges: ranges(readDateRange(query, 'createdAt')), order: readOrder(query),
          beforeId: readBeforeId(query, 'createdAt'), afterId: readAfterId(query, 'createdAt'), outcome,
        });
        return { meta: { hasMore }, body: { deliveries: entries.map(publicDelivery) } };
      },
    },
    {
      method: 'GET', path: '/v1/webhooks/:id/dead-letters', auth: 'secret', rate,
      handler: async ({ scope, params, query }) => {
        const { rows, hasMore } = await service.deadLetters(scope, params.id, readLimit(query, 1000, 100));
        return { meta: { hasMore }, body: { deadLetters: rows.map(publicDeadLetter) } };
      },
    },
    {
      // Dead letters back into the queue: all of them (500 per call; meta.hasMore says to call again) or `ids`.
      method: 'POST', path: '/v1/webhooks/:id/dead-letters/redeliver', auth: 'secret', rate,
      handler: async ({ scope, params, body, now }) => {
        const result = await service.redeliverDead(scope, params.id, readIds(body.ids, 'ids'), now);
        return { meta: { hasMore: result.hasMore }, body: { queued: result.queued, missing: result.missing } };
      },
    },
    {
      // Past events again: by `eventIds`, or those created between `createdAfter` and `createdBefore`
      // (oldest first, `limit` at most; continue from the last one when meta.hasMore).
      method: 'POST', path: '/v1/webhooks/:id/redeliver', auth: 'secret', rate,
      handler: async ({ scope, params, body, now }) => {
        const eventIds = readIds(body.eventIds, 'eventIds');
        const createdAfter = readDatetime(body.createdAfter, 'createdAfter');
        const createdBefore = readDatetime(body.createdBefore, 'createdBefore');
        if (!eventIds && !createdAfter && !createdBefore) {
          throw new BadRequest('eventIds', 'give eventIds, or a time range with createdAfter and/or createdBefore');
        }
        if (eventIds && (createdAfter || createdBefore)) throw new BadRequest('eventIds', 'give eventIds or a time range, not both');
        const limit = readLimit(body, MAX_REDELIVER_EVENTS, 100);
        const result = await service.redeliverEvents(scope, params.id, { eventIds, createdAfter, createdBefore, limit }, now);
        return { meta: { hasMore: result.hasMore }, body: { queued: result.queued, eventIds: result.eventIds, missing: result.missing } };
      },
    },
  ];
}
