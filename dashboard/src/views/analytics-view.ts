// Analytics over a chosen period, computed in the page from the API's lists: events per day by type,
// top geofences by entries, the distribution of visit lengths (exit events' duration), and trip durations
// and delays. The API has no aggregate endpoint, so at most MAX_EVENTS events and MAX_TRIPS trips of the
// period are read (the page says when it stopped short).
import type { ViewContext } from '../context';
import { attempt, field, h, table } from '../elements';
import type { EventItem } from '../events-feed';
import { count, eventLabel, thousands } from '../words';

const MAX_EVENTS = 10_000;
const MAX_TRIPS = 1000;
const DWELL_BUCKETS: Array<[number, string]> = [[5, 'under 5 min'], [15, '5–15 min'], [60, '15–60 min'], [240, '1–4 h'], [Infinity, '4 h and more']];

function bar(value: number, max: number): HTMLElement {
  return h('span', { class: 'bar', style: `width:${max ? Math.max(2, Math.round((value / max) * 160)) : 0}px`, 'aria-hidden': 'true' });
}

export async function analyticsView(ctx: ViewContext): Promise<void> {
  const days = h('select', { name: 'period' }, [[1, 'Last 24 hours'], [7, 'Last 7 days'], [30, 'Last 30 days']].map(([d, label]) => h('option', { value: d, selected: d === 7 }, label)));
  const error = h('p', { class: 'error', role: 'alert' });
  const out = h('div', { id: 'analytics', 'aria-live': 'polite' });
  const form = h('form', { class: 'row', 'aria-label': 'Period' }, field('Period', days), h('button', { type: 'submit' }, 'Show'));
  ctx.root.append(h('h1', {}, `Analytics · ${ctx.env}`), h('div', { class: 'card' }, form, error), out);

  const load = async () => {
    out.replaceChildren(h('p', { class: 'muted' }, 'Reading events…'));
    const after = new Date(Date.now() - Number(days.value) * 86400_000).toISOString();
    const events: EventItem[] = [];
    let before: string | undefined;
    let cut = false;
    for (;;) {
      const page = await ctx.api.get('/v1/events', { limit: 1000, createdAfter: after, createdBefore: before });
      const items = (page.events ?? []) as EventItem[];
      events.push(...items);
      if (!page.meta?.hasMore || items.length === 0) break;
      if (events.length >= MAX_EVENTS) { cut = true; break; }
      before = items[items.length - 1].createdAt;
    }
    const { trips } = await ctx.api.get('/v1/trips', { limit: MAX_TRIPS, createdAfter: after });

    // Events per day by type.
    const types = [...new Set(events.map((e) => e.type))].sort();
    const perDay = new Map<string, Map<string, number>>();
    for (const e of events) {
      const day = e.createdAt.slice(0, 10);
      const row = perDay.get(day) ?? new Map<string, number>();
      row.set(e.type, (row.get(e.type) ?? 0) + 1);
      perDay.set(day, row);
    }
    const dayRows = [...perDay.keys()].sort().reverse().map((d) => [d, ...types.map((t) => perDay.get(d)!.get(t) ?? 0)]);
    // Top geofences by entries.
    const entries = new Map<string, number>();
    for (const e of events) if (e.type === 'user.entered_geofence' && e.geofence) {
      const name = e.geofence.description || `${e.geofence.tag}/${e.geofence.externalId}`;
      entries.set(name, (entries.get(name) ?? 0) + 1);
    }
    // Ties by name, so the table reads the same on every load.
    const top = [...entries.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 10);
    // Visit lengths from exits.
    const dwell = DWELL_BUCKETS.map(() => 0);
    for (const e of events as Array<EventItem & { duration?: number }>) {
      if (e.type !== 'user.exited_geofence' || typeof e.duration !== 'number') continue;
      dwell[DWELL_BUCKETS.findIndex(([limit]) => e.duration! < limit)]++;
    }
    // Trips: durations of those that arrived, and delays.
    const arrived = (trips as Array<{ startedAt?: string; arrivedAt?: string; delay?: { delayed: boolean; scheduledArrivalTimeDelay?: number } }>)
      .filter((t) => t.startedAt && t.arrivedAt).map((t) => (Date.parse(t.arrivedAt!) - Date.parse(t.startedAt!)) / 60000).sort((a, b) => a - b);
    const delayed = (trips as Array<{ delay?: { delayed: boolean } }>).filter((t) => t.delay?.delayed).length;
    const pct = (p: number) => (arrived.length ? `${arrived[Math.min(arrived.length - 1, Math.floor(p * arrived.length))].toFixed(1)} min` : '—');

    const maxTop = top[0]?.[1] ?? 0;
    const maxDwell = Math.max(...dwell);
    out.replaceChildren(
      h('p', { class: 'muted', id: 'analytics-summary' }, `${count(events.length, 'event')} and ${count(trips.length, 'trip')} in the period${cut ? ` (stopped at the newest ${thousands(MAX_EVENTS)} events)` : ''}.`),
      h('section', { class: 'card', 'aria-labelledby': 'per-day-h' }, h('h2', { id: 'per-day-h' }, 'Events per day'),
        dayRows.length ? table(['Day', ...types.map(eventLabel)], dayRows) : h('p', { class: 'muted' }, 'No events in the period.')),
      h('section', { class: 'card', 'aria-labelledby': 'top-h' }, h('h2', { id: 'top-h' }, 'Top geofences by entries'),
        top.length ? table(['Geofence', 'Entries', ''], top.map(([name, n]) => [name, n, bar(n, maxTop)])) : h('p', { class: 'muted' }, 'No entries in the period.')),
      h('section', { class: 'card', 'aria-labelledby': 'dwell-h' }, h('h2', { id: 'dwell-h' }, 'Visit length (exits)'),
        table(['Visit', 'Exits', ''], DWELL_BUCKETS.map(([, label], i) => [label, dwell[i], bar(dwell[i], maxDwell)]))),
      h('section', { class: 'card', 'aria-labelledby': 'trip-stats-h' }, h('h2', { id: 'trip-stats-h' }, 'Trips'),
        table(['Figure', 'Value'], [['Trips in the period', trips.length], ['Arrived', arrived.length], ['Duration to arrival, median', pct(0.5)],
          ['Duration to arrival, 90th percentile', pct(0.9)], ['Delayed', delayed]])),
    );
  };
  form.addEventListener('submit', (e) => { e.preventDefault(); void attempt(error, load); });
  await attempt(error, load);
}
