// Ours, not Radar's: GET /v1/data/analytics, a period's analytics computed by the server (the dashboard's
// Analytics view). The period is whole UTC days: `days` (the last N days, today included) or `from` and
// `to` (both included).
import type { Route } from '../../http/route';
import { BadRequest } from '../../http/errors';
import { custom, integer, paramSpec, takes } from '../../http/params/param-spec';
import { BOOLEAN, INTEGER, NUMBER, STRING, arrayOf, nullable, object } from '../../http/response-schema';
import { parseUtcDay, startOfUtcDay, utcDayOf } from '../../../core/analytics/utc-days';
import type { AnalyticsService } from './analytics-service';

/** Longest period: a year, leap day included. */
export const MAX_PERIOD_DAYS = 366;
const DAY_MS = 86_400_000;

function readDay(raw: unknown, name: string): number {
  const ms = typeof raw === 'string' && raw.length <= 10 ? parseUtcDay(raw) : undefined;
  if (ms === undefined) throw new BadRequest(name, `${name} must be a day written YYYY-MM-DD (a UTC day)`);
  return ms;
}

const DAY_SCHEMA = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };

const PERIOD = paramSpec('query', {
  days: integer({ min: 1, max: MAX_PERIOD_DAYS }).describe('the last N UTC days, today included (default 7); not with from/to'),
  from: custom(readDay, DAY_SCHEMA).describe('first day of the period, YYYY-MM-DD (UTC), with to'),
  to: custom(readDay, DAY_SCHEMA).describe('last day of the period, YYYY-MM-DD (UTC), included; a day after today counts as today'),
  top: integer({ min: 1, max: 100 }).default(10).describe('how many geofences in topGeofences'),
});

const BREAKDOWN = { type: 'object', additionalProperties: { type: 'integer' } };
const PERCENTILES = object({ counted: INTEGER, median: nullable(NUMBER), p90: nullable(NUMBER) });
const RESPONSE = {
  period: object({ from: STRING, to: STRING, days: INTEGER, timeZone: STRING }),
  events: INTEGER,
  byType: BREAKDOWN,
  days: arrayOf(object({ day: STRING, events: INTEGER, byType: BREAKDOWN })),
  topGeofences: arrayOf(object({ _id: STRING, tag: STRING, externalId: STRING, description: STRING, entries: INTEGER })),
  visits: arrayOf(object({ minMinutes: NUMBER, maxMinutes: nullable(NUMBER), exits: INTEGER })),
  trips: object({ started: INTEGER, arrived: INTEGER, arrivedLate: INTEGER, durationToArrival: PERCENTILES, delay: PERCENTILES }),
  today: nullable(object({ day: STRING, events: INTEGER, capped: BOOLEAN, cap: INTEGER })),
  summaries: object({ reused: INTEGER, built: INTEGER, eventsRead: INTEGER }),
};

/** [from, to] as starts of UTC days from the query, checked; `to` no later than today. */
function readPeriod(q: { days?: number; from?: number; to?: number }, now: Date): { from: number; to: number } {
  const today = startOfUtcDay(now.getTime());
  if (q.days !== undefined && (q.from !== undefined || q.to !== undefined)) throw new BadRequest('days', 'give either days or from and to, not both');
  if ((q.from === undefined) !== (q.to === undefined)) {
    throw new BadRequest(q.from === undefined ? 'from' : 'to', 'from and to go together: the first and the last day of the period');
  }
  if (q.from === undefined || q.to === undefined) {
    const days = q.days ?? 7;
    return { from: today - (days - 1) * DAY_MS, to: today };
  }
  if (q.from > q.to) throw new BadRequest('from', 'from must be on or before to');
  if (q.from > today) throw new BadRequest('from', `from is after today (${utcDayOf(today)}, UTC): there is nothing to count yet`);
  const to = Math.min(q.to, today);
  if ((to - q.from) / DAY_MS + 1 > MAX_PERIOD_DAYS) throw new BadRequest('to', `a period is at most ${MAX_PERIOD_DAYS} days`);
  return { from: q.from, to };
}

export function analyticsRoutes(analytics: AnalyticsService): Route[] {
  return [
    {
      method: 'GET', path: '/v1/data/analytics', auth: 'secret', rate: { name: 'analytics', perSecond: 5 },
      doc: {
        summary: 'Events per day by type, top geofences by entries, visit lengths, trip durations and delays over a period of UTC days (ours; for the dashboard)',
        response: { body: RESPONSE, errors: [503] },
      },
      ...takes(PERIOD, async ({ scope, now }, q) => {
        const { from, to } = readPeriod(q, now);
        const { report, today, summaries, eventsRead } = await analytics.period(scope, from, to, now, q.top);
        return {
          body: {
            period: { from: utcDayOf(from), to: utcDayOf(to), days: Math.round((to - from) / DAY_MS) + 1, timeZone: 'UTC' },
            ...report,
            today,
            summaries: { ...summaries, eventsRead },
          },
        };
      }),
    },
  ];
}
