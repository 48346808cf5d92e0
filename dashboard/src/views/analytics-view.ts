// Analytics over a chosen period of local days in a chosen time zone (the browser's by default), computed
// by the server (GET /v1/data/analytics?timeZone=): events per day by type, top geofences by entries, the
// distribution of visit lengths (exit events' duration), and trip durations and delays. The page only
// draws the answer: it reads no events itself, so a busy environment's month is counted whole (closed days
// from the server's kept summaries).
import type { ViewContext } from '../context';
import { attempt, field, h, table } from '../elements';
import { count, eventLabel, thousands } from '../words';

const VISIT_LABELS = ['under 5 min', '5–15 min', '15–60 min', '1–4 h', '4 h and more'];
const PERIODS: Array<[string, string]> = [['24h', 'Last 24 hours'], ['1', 'Today'], ['7', 'Last 7 days'], ['30', 'Last 30 days'], ['90', 'Last 90 days'], ['custom', 'From – to']];

/** The browser's zone, UTC, then every zone the browser knows: a team picks its own. */
function zoneChoices(browserZone: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([browserZone, 'UTC', ...known])];
}

/** "YYYY-MM-DD" of the instant `ms` in the zone. */
function dayIn(zone: string, ms: number): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(ms));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

interface GeofenceEntries { _id: string; tag: string; externalId: string; description: string; entries: number }
interface Percentiles { counted: number; median: number | null; p90: number | null }
interface AnalyticsAnswer {
  period: { from: string; to: string; days: number; hours: number | null };
  events: number;
  byType: Record<string, number>;
  days: Array<{ day: string; start: string; end: string; events: number; byType: Record<string, number> }>;
  topGeofences: GeofenceEntries[];
  visits: Array<{ exits: number }>;
  trips: { started: number; arrived: number; arrivedLate: number; durationToArrival: Percentiles; delay: Percentiles };
  today: { day: string; events: number; capped: boolean; cap: number } | null;
}

function bar(value: number, max: number): HTMLElement {
  return h('span', { class: 'bar', style: `width:${max ? Math.max(2, Math.round((value / max) * 160)) : 0}px`, 'aria-hidden': 'true' });
}

const minutes = (m: number | null) => (m === null ? '—' : `${m.toFixed(1)} min`);
/**
 * A day's label: with its length when a daylight-saving change made it other than 24 hours, or with its
 * hours in the zone when it is a slice of a rolling period.
 */
function dayLabel(d: { day: string; start: string; end: string }, zone: string, rolling: boolean): string {
  if (rolling) {
    const clock = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    return `${d.day}, ${clock.format(new Date(d.start))}–${clock.format(new Date(Date.parse(d.end) - 1))}`;
  }
  const hours = (Date.parse(d.end) - Date.parse(d.start)) / 3600_000;
  return hours === 24 || !Number.isFinite(hours) ? d.day : `${d.day} (${hours} h)`;
}

export async function analyticsView(ctx: ViewContext): Promise<void> {
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const zone = h('select', { name: 'timeZone' }, zoneChoices(browserZone).map((z) => h('option', { value: z, selected: z === browserZone }, z)));
  const period = h('select', { name: 'period' }, PERIODS.map(([value, label]) => h('option', { value, selected: value === '7' }, label)));
  const today = period.options[1];
  const showZone = () => { today.textContent = `Today (${zone.value})`; };
  showZone();
  const from = h('input', { type: 'date', name: 'from', value: dayIn(browserZone, Date.now() - 29 * 86400_000), required: true });
  const to = h('input', { type: 'date', name: 'to', value: dayIn(browserZone, Date.now()), required: true });
  const range = h('div', { class: 'row', hidden: true }, field('From', from), field('To (included)', to));
  const error = h('p', { class: 'error', role: 'alert' });
  const out = h('div', { id: 'analytics', 'aria-live': 'polite' });
  const form = h('form', { class: 'row', 'aria-label': 'Analytics period' },
    field('Time zone', zone, 'days run from its midnight to the next'), field('Period', period, 'days of the time zone, today included'), range, h('button', { type: 'submit' }, 'Show'));
  ctx.root.append(h('h1', {}, `Analytics · ${ctx.env}`), h('div', { class: 'card' }, form, error), out);
  period.addEventListener('change', () => { range.hidden = period.value !== 'custom'; });

  const load = async () => {
    out.replaceChildren(h('p', { class: 'muted' }, 'Counting…'));
    const timeZone = zone.value;
    const query = period.value === 'custom' ? { from: from.value, to: to.value, timeZone }
      : period.value === '24h' ? { hours: 24, timeZone } : { days: Number(period.value), timeZone };
    const a = (await ctx.api.get('/v1/data/analytics', query)) as AnalyticsAnswer;

    const types = Object.keys(a.byType).sort();
    const dayRows = a.days.filter((d) => d.events > 0).reverse().map((d) => [dayLabel(d, timeZone, a.period.hours !== null), ...types.map((t) => thousands(d.byType[t] ?? 0))]);
    const name = (g: GeofenceEntries) => g.description || `${g.tag}/${g.externalId}`;
    const maxTop = a.topGeofences[0]?.entries ?? 0;
    const maxVisit = Math.max(...a.visits.map((v) => v.exits));
    const t = a.trips;
    const span = a.period.from === a.period.to ? a.period.from : `${a.period.from} – ${a.period.to}`;
    const within = a.period.hours !== null ? `in the last ${a.period.hours} hours (${timeZone})` : `in the period (${span}, ${timeZone})`;
    const capped = !a.today?.capped ? '' : a.period.hours !== null ? ` Counted from the newest ${thousands(a.today.cap)} events only.` : ` Today is counted from its newest ${thousands(a.today.cap)} events only.`;
    out.replaceChildren(
      h('p', { class: 'muted', id: 'analytics-summary' }, `${count(a.events, 'event')} and ${count(t.started, 'trip')} ${within}.${capped}`),
      h('section', { class: 'card', 'aria-labelledby': 'per-day-h' }, h('h2', { id: 'per-day-h' }, 'Events per day'),
        dayRows.length ? table(['Day', ...types.map(eventLabel)], dayRows) : h('p', { class: 'muted' }, 'No events in the period.')),
      h('section', { class: 'card', 'aria-labelledby': 'top-h' }, h('h2', { id: 'top-h' }, 'Top geofences by entries'),
        a.topGeofences.length ? table(['Geofence', 'Entries', ''], a.topGeofences.map((g) => [name(g), thousands(g.entries), bar(g.entries, maxTop)])) : h('p', { class: 'muted' }, 'No entries in the period.')),
      h('section', { class: 'card', 'aria-labelledby': 'dwell-h' }, h('h2', { id: 'dwell-h' }, 'Visit length (exits)'),
        table(['Visit', 'Exits', ''], a.visits.map((v, i) => [VISIT_LABELS[i] ?? '', thousands(v.exits), bar(v.exits, maxVisit)]))),
      h('section', { class: 'card', 'aria-labelledby': 'trip-stats-h' }, h('h2', { id: 'trip-stats-h' }, 'Trips'),
        table(['Figure', 'Value'], [['Trips started', thousands(t.started)], ['Arrived', thousands(t.arrived)],
          ['Duration to arrival, median', minutes(t.durationToArrival.median)], ['Duration to arrival, 90th percentile', minutes(t.durationToArrival.p90)],
          ['Arrived late', thousands(t.arrivedLate)], ['Delay of late arrivals, median', minutes(t.delay.median)]])),
    );
  };
  zone.addEventListener('change', () => { showZone(); void attempt(error, load); });
  form.addEventListener('submit', (e) => { e.preventDefault(); void attempt(error, load); });
  await attempt(error, load);
}
