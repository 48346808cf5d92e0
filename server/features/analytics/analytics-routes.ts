// Ours, not Radar's: GET /v1/data/analytics, a period's analytics computed by the server (the dashboard's
// Analytics view). The period is whole local days of `timeZone` (an IANA zone, UTC by default): `days`
// (the last N days, the zone's today included) or `from` and `to` (both included); or `hours`, the rolling
// last N hours (at most 24, read from the events each time, capped as today is).
import type { Route } from '../../http/route';
import { BadRequest } from '../../http/errors';
import { custom, integer, paramSpec, takes } from '../../http/params/param-spec';
import { BOOLEAN, INTEGER, NUMBER, STRING, arrayOf, nullable, object } from '../../http/response-schema';
import { DAY_MS, dayText, parseDay } from '../../../core/analytics/calendar-days';
import { zoneDays, type ZoneDays } from '../../../core/analytics/zone-days';
import type { AnalyticsService } from './analytics-service';

/** Longest period: a year, leap day included. */
export const MAX_PERIOD_DAYS = 366;

function readDay(raw: unknown, name: string): number {
  const key = typeof raw === 'string' && raw.length <= 10 ? parseDay(raw) : undefined;
  if (key === undefined) throw new BadRequest(name, `${name} must be a day written YYYY-MM-DD (a day of timeZone)`);
  return key;
}

/** IANA names are short words of letters, digits and _ + - joined by '/': anything else is not asked of Intl. */
const ZONE_PATTERN = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,3}$/;

function readZone(raw: unknown, name: string): ZoneDays {
  const zone = typeof raw === 'string' && raw.length <= 64 && ZONE_PATTERN.test(raw) ? zoneDays(raw) : undefined;
  if (zone === undefined) throw new BadRequest(name, `${name} must be an IANA time zone such as America/New_York or UTC`);
  return zone;
}

const DAY_SCHEMA = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };

const PERIOD = paramSpec('query', {
  days: integer({ min: 1, max: MAX_PERIOD_DAYS }).describe('the last N days of timeZone, its today included (default 7); not with from/to'),
  from: custom(readDay, DAY_SCHEMA).describe('first day of the period, YYYY-MM-DD (a day of timeZone), with to'),
  to: custom(readDay, DAY_SCHEMA).describe('last day of the period, YYYY-MM-DD (a day of timeZone), included; a day after today counts as today'),
  hours: integer({ min: 1, max: 24 }).describe('the rolling last N hours up to now, its days cut at the zone\'s midnights; not with days or from/to'),
  timeZone: custom(readZone, { type: 'string', maxLength: 64 }).describe('the IANA time zone whose local days the period counts (default UTC), e.g. America/New_York'),
  top: integer({ min: 1, max: 100 }).default(10).describe('how many geofences in topGeofences'),
});

const BREAKDOWN = { type: 'object', additionalProperties: { type: 'integer' } };
const PERCENTILES = object({ counted: INTEGER, median: nullable(NUMBER), p90: nullable(NUMBER) });
const RESPONSE = {
  period: object({ from: STRING, to: STRING, days: INTEGER, timeZone: STRING, hours: nullable(INTEGER) }),
  events: INTEGER,
  byType: BREAKDOWN,
  days: arrayOf(object({ day: STRING, start: STRING, end: STRING, events: INTEGER, byType: BREAKDOWN })),
  topGeofences: arrayOf(object({ _id: STRING, tag: STRING, externalId: STRING, description: STRING, entries: INTEGER })),
  visits: arrayOf(object({ minMinutes: NUMBER, maxMinutes: nullable(NUMBER), exits: INTEGER })),
  trips: object({ started: INTEGER, arrived: INTEGER, arrivedLate: INTEGER, durationToArrival: PERCENTILES, delay: PERCENTILES }),
  today: nullable(object({ day: STRING, events: INTEGER, capped: BOOLEAN, cap: INTEGER })),
  summaries: object({ reused: INTEGER, built: INTEGER, eventsRead: INTEGER }),
};

/** [from, to] as keys of the zone's days from the query, checked; `to` no later than the zone's today. */
function readPeriod(q: { days?: number; from?: number; to?: number }, zone: ZoneDays, now: Date): { from: number; to: number } {
  const today = zone.dayOf(now.getTime());
  if (q.days !== undefined && (q.from !== undefined || q.to !== undefined)) throw new BadRequest('days', 'give either days or from and to, not both');
  if ((q.from === undefined) !== (q.to === undefined)) {
    throw new BadRequest(q.from === undefined ? 'from' : 'to', 'from and to go together: the first and the last day of the period');
  }
  if (q.from === undefined || q.to === undefined) {
    const days = q.days ?? 7;
    return { from: today - (days - 1) * DAY_MS, to: today };
  }
  if (q.from > q.to) throw new BadRequest('from', 'from must be on or before to');
  if (q.from > today) throw new BadRequest('from', `from is after today (${dayText(today)} in ${zone.zone}): there is nothing to count yet`);
  const to = Math.min(q.to, today);
  if ((to - q.from) / DAY_MS + 1 > MAX_PERIOD_DAYS) throw new BadRequest('to', `a period is at most ${MAX_PERIOD_DAYS} days`);
  return { from: q.from, to };
}

export function analyticsRoutes(analytics: AnalyticsService): Route[] {
  return [
    {
      method: 'GET', path: '/v1/data/analytics', auth: 'secret', rate: { name: 'analytics', perSecond: 5 },
      doc: {
        summary: 'Events per day by type, top geofences by entries, visit lengths, trip durations and delays over a period of local days of a time zone (ours; for the dashboard)',
        response: { body: RESPONSE, errors: [503] },
      },
      ...takes(PERIOD, async ({ scope, now }, q) => {
        const zone = q.timeZone ?? zoneDays('UTC')!;
        if (q.hours !== undefined) {
          if (q.days !== undefined || q.from !== undefined || q.to !== undefined) throw new BadRequest('hours', 'give either hours or days or from and to, not two of them');
          const { report, today, summaries, eventsRead, slices } = await analytics.lastHours(scope, zone, now, q.hours, q.top);
          return {
            body: {
              period: { from: slices[0].day, to: slices[slices.length - 1].day, days: slices.length, timeZone: zone.zone, hours: q.hours },
              ...report,
              today,
              summaries: { ...summaries, eventsRead },
            },
          };
        }
        const { from, to } = readPeriod(q, zone, now);
        const { report, today, summaries, eventsRead } = await analytics.period(scope, zone, from, to, now, q.top);
        return {
          body: {
            period: { from: dayText(from), to: dayText(to), days: Math.round((to - from) / DAY_MS) + 1, timeZone: zone.zone, hours: null },
            ...report,
            today,
            summaries: { ...summaries, eventsRead },
          },
        };
      }),
    },
  ];
}
