// POST /v1/track, POST /v1/track/replay and GET /v1/config: the calls Radar's SDKs make while tracking.
import { BadRequest, apiErrorOf } from '../../http/errors';
import { JsonText } from '../../http/json-text';
import type { RequestContext, Route } from '../../http/route';
import { publicView } from '../../../core/model/views';
import { TRACK_PARAMS, parseTrackInput } from './track-input';
import { type TrackService } from './track-service';
import { publicEvent } from '../../../core/model/views';

const MAX_REPLAYS = 500;

/**
 * A replay batch is one device's offline updates: every update carries the same deviceId (the top-level
 * one, when sent). The per-device rate limit is charged to that device, so a batch that mixed devices,
 * or a new top-level deviceId per request, can no longer replay far more updates than track allows.
 */
function checkOneDevice(topLevel: unknown, replays: unknown[]): void {
  let device = typeof topLevel === 'string' && topLevel !== '' ? topLevel : undefined;
  for (const [i, item] of replays.entries()) {
    const id = typeof item === 'object' && item !== null ? (item as Record<string, unknown>).deviceId : undefined;
    if (typeof id !== 'string' || id === '') continue;
    device ??= id;
    if (id !== device) throw new BadRequest(`replays[${i}].deviceId`, `replays[${i}].deviceId must be "${device.slice(0, 64)}": a replay carries the updates of one device`);
  }
}

export function trackRoutes(track: TrackService): Route[] {
  const run = (ctx: RequestContext, body: Record<string, unknown>) =>
    track.track({ scope: ctx.scope, settings: ctx.auth.settings, ip: ctx.ip, now: ctx.now }, parseTrackInput(body));
  return [
    {
      method: 'POST', path: '/v1/track', auth: 'publishable', rate: { name: 'track', perSecond: 1, per: 'device' },
      // parseTrackInput reads the body through TRACK_PARAMS.
      input: TRACK_PARAMS,
      handler: async (ctx) => {
        const { json } = await run(ctx, ctx.body);
        return { body: { events: new JsonText(`[${json.events.join(',')}]`), user: new JsonText(json.user) } };
      },
    },
    {
      // Offline updates the SDK kept; processed in order, each answered on its own.
      method: 'POST', path: '/v1/track/replay', auth: 'publishable', rate: { name: 'track-replay', perSecond: 1, per: 'device' },
      handler: async (ctx) => {
        const replays = ctx.body.replays;
        if (!Array.isArray(replays)) throw new BadRequest('replays', 'replays must be an array of track bodies');
        if (replays.length > MAX_REPLAYS) throw new BadRequest('replays', `replays can hold at most ${MAX_REPLAYS} updates`);
        checkOneDevice(ctx.body.deviceId, replays);
        const results: Array<Record<string, unknown>> = [];
        for (const [i, item] of replays.entries()) {
          if (typeof item !== 'object' || item === null || Array.isArray(item)) {
            results.push({ meta: { code: 400, param: `replays[${i}]`, message: `replays[${i}] must be a track body` } });
            continue;
          }
          try {
            const { user, events } = await run(ctx, { replayed: true, ...(item as Record<string, unknown>) });
            results.push({ meta: { code: 200 }, events: events.map(publicEvent), user: publicView(user) });
          } catch (err) {
            const known = apiErrorOf(err);
            if (!known) throw err;
            results.push({ meta: { code: known.status, param: known.param, message: known.message } });
          }
        }
        return { body: { results } };
      },
    },
    {
      method: 'GET', path: '/v1/config', auth: 'publishable',
      handler: async () => ({}),
    },
  ];
}
