// Trips as a live operations view: the active trips on a map (last location, route so far, destination)
// and in a table with ETA, destination geofence, state and delay, read again every few seconds; one
// trip's page with its route, ETA history and timeline (the trip's events among its user's, read from the
// user's events index since the trip began).
import L from 'leaflet';
import type { ViewContext } from '../context';
import { poll } from '../context';
import { attempt, field, h, table, when } from '../elements';
import type { EventItem } from '../events-feed';
import { fitAndDecorate, smallMap } from '../map/small-map';
import { loadEvents } from './user-history';
import { count, eventLabel } from '../words';

const TRIP_EVENT_TYPES = 'user.started_trip,user.updated_trip,user.approaching_trip_destination,user.arrived_at_trip_destination,user.stopped_trip';
const ACTIVE = 'started,approaching,arrived';
const LIVE_MS = 5000;
/** A trip's user's events read for its timeline at most: a trip of hours holds a few dozen. */
const TIMELINE_READ = 5000;
const ENDED = ['completed', 'canceled', 'expired'];

interface Trip {
  _id: string; externalId: string; status: string; mode?: string; updatedAt: string; createdAt: string;
  userId?: string; user?: { _id: string; userId?: string; deviceId?: string };
  destinationGeofenceTag?: string; destinationGeofenceExternalId?: string;
  destinationLocation?: { coordinates: [number, number] };
  eta?: { duration: number; distance: number };
  delay?: { delayed: boolean; scheduledArrivalTimeDelay?: number };
  scheduledArrivalAt?: string;
  locations?: Array<{ coordinates: [number, number]; updatedAt?: string }>;
}

const STATE_PILL: Record<string, string> = { started: '', approaching: 'warn', arrived: 'ok', completed: 'ok', canceled: 'bad', expired: 'bad', pending: '' };

function state(t: Trip): HTMLElement {
  return h('span', { class: 'row' }, h('span', { class: `pill ${STATE_PILL[t.status] ?? ''}` }, t.status),
    t.delay?.delayed ? h('span', { class: 'pill bad' }, `delayed${t.delay.scheduledArrivalTimeDelay ? ` ${Math.round(t.delay.scheduledArrivalTimeDelay)} min` : ''}`) : null);
}
const eta = (t: Trip) => (t.eta ? `${Math.round(t.eta.duration)} min · ${(t.eta.distance / 1000).toFixed(1)} km` : '—');
const destination = (t: Trip) => (t.destinationGeofenceTag ? `${t.destinationGeofenceTag}/${t.destinationGeofenceExternalId ?? ''}` : '—');
const who = (t: Trip) => t.user?.userId ?? t.userId ?? t.user?.deviceId ?? '—';

export async function tripsView(ctx: ViewContext, id?: string): Promise<void> {
  const error = h('p', { class: 'error', role: 'alert' });
  if (id) return tripDetail(ctx, id, error);
  const which = h('select', { name: 'status' }, h('option', { value: ACTIVE }, 'Active (started, approaching, arrived)'),
    h('option', { value: 'pending' }, 'Pending'), h('option', { value: 'completed,canceled,expired' }, 'Ended'), h('option', { value: '' }, 'All'));
  const summary = h('p', { class: 'muted', id: 'trips-summary', 'aria-live': 'polite' });
  const list = h('div', { id: 'trip-list' });
  const mapEl = h('div', { class: 'map', id: 'trips-map', style: 'height: 420px', role: 'region', 'aria-label': 'Active trips on a map' });
  ctx.root.append(h('h1', {}, `Trips · ${ctx.env}`), error,
    h('div', { class: 'card' }, h('div', { class: 'row' }, field('Show', which)), summary, mapEl),
    h('div', { class: 'card' }, list));
  const map = smallMap(ctx, mapEl);
  const layer = L.layerGroup().addTo(map);
  let fitted = false;

  const load = async () => {
    const { trips } = (await ctx.api.get('/v1/trips', { limit: 100, status: which.value || undefined, includeLocations: true })) as { trips: Trip[] };
    const delayed = trips.filter((t) => t.delay?.delayed).length;
    const approaching = trips.filter((t) => t.status === 'approaching').length;
    summary.textContent = `${count(trips.length, 'trip')} · ${approaching} approaching · ${delayed} delayed · updates every ${LIVE_MS / 1000} s`;
    list.replaceChildren(trips.length
      ? table(['Trip', 'User', 'State', 'ETA', 'Destination', 'Mode', 'Updated'], trips.map((t) => [
        h('a', { href: `#/trips/${t._id}` }, t.externalId), who(t), state(t), eta(t), destination(t), t.mode ?? '—', when(t.updatedAt)]))
      : h('p', { class: 'muted' }, 'No trips here.'));
    layer.clearLayers();
    const points: Array<[number, number]> = [];
    for (const t of trips) {
      const route = (t.locations ?? []).map((l) => [l.coordinates[1], l.coordinates[0]] as [number, number]);
      const color = t.delay?.delayed ? '#c62828' : t.status === 'approaching' ? '#b26a00' : '#1f6feb';
      if (route.length > 1) L.polyline(route, { color, weight: 3, opacity: 0.8 }).addTo(layer);
      const last = route[route.length - 1];
      const label = `${t.externalId} · ${t.status}${t.eta ? ` · ETA ${Math.round(t.eta.duration)} min` : ''}`;
      if (last) {
        L.circleMarker(last, { radius: 7, color: '#fff', weight: 2, fillColor: color, fillOpacity: 1 }).bindTooltip(label).on('click', () => ctx.navigate(`#/trips/${t._id}`)).addTo(layer);
        points.push(last);
      }
      const dest = t.destinationLocation?.coordinates;
      if (dest) {
        L.circleMarker([dest[1], dest[0]], { radius: 6, color: '#d35400', weight: 2, fillOpacity: 0.2 }).bindTooltip(`${t.externalId}: destination ${destination(t)}`).addTo(layer);
        if (last) L.polyline([last, [dest[1], dest[0]]], { color, weight: 1, dashArray: '4 6', opacity: 0.6 }).addTo(layer);
        points.push([dest[1], dest[0]]);
      }
    }
    mapEl.dataset.trips = String(trips.length);
    if (!fitted) { fitted = true; fitAndDecorate(map, ctx.api, points); }
  };
  which.addEventListener('change', () => { fitted = false; void attempt(error, load); });
  await attempt(error, load);
  poll(ctx, LIVE_MS, () => attempt(error, load).then(() => undefined));
}

async function tripDetail(ctx: ViewContext, id: string, error: HTMLElement): Promise<void> {
  ctx.root.append(h('p', {}, h('a', { href: '#/trips' }, '← All trips')), error);
  await attempt(error, async () => {
    const { trip } = (await ctx.api.get(`/v1/trips/${encodeURIComponent(id)}`, { includeLocations: true })) as { trip: Trip };
    const { timeline, cut } = await tripTimeline(ctx, trip);
    const mapEl = h('div', { class: 'map', id: 'trip-map', style: 'height: 360px', role: 'region', 'aria-label': 'The trip’s route' });
    ctx.root.append(
      h('h1', {}, `Trip ${trip.externalId}`),
      h('p', {}, state(trip), ` ${who(trip)} · ${trip.mode ?? ''} · to ${destination(trip)} · ETA ${eta(trip)}${trip.scheduledArrivalAt ? ` · scheduled ${when(trip.scheduledArrivalAt)}` : ''}`),
      h('div', { class: 'card' }, mapEl),
      h('section', { class: 'card', 'aria-labelledby': 'timeline-h' }, h('h2', { id: 'timeline-h' }, 'Timeline'), timeline.length
        ? table(['When', 'What', 'ETA (min)', 'Distance (km)'], timeline.map((e) => [when(e.createdAt), eventLabel(e.type),
          e.trip?.eta ? Math.round(e.trip.eta.duration) : '—', e.trip?.eta ? (e.trip.eta.distance / 1000).toFixed(2) : '—']))
        : h('p', { class: 'muted' }, 'No trip events recorded yet.'),
        cut ? h('p', { class: 'muted', id: 'timeline-cut' }, cut) : null));
    const map = smallMap(ctx, mapEl);
    const points = (trip.locations ?? []).map((l) => [l.coordinates[1], l.coordinates[0]] as [number, number]);
    if (points.length) {
      L.polyline(points, { color: '#1f6feb', weight: 3 }).addTo(map);
      L.circleMarker(points[points.length - 1], { radius: 6, color: '#2e7d32' }).bindTooltip('last location').addTo(map);
    }
    const dest = trip.destinationLocation?.coordinates;
    if (dest) L.circleMarker([dest[1], dest[0]], { radius: 7, color: '#d35400' }).bindTooltip('destination').addTo(map);
    fitAndDecorate(map, ctx.api, dest ? [...points, [dest[1], dest[0]]] : points);
    if (['started', 'approaching', 'arrived'].includes(trip.status)) {
      poll(ctx, LIVE_MS, async () => {
        const { trip: now } = await ctx.api.get(`/v1/trips/${encodeURIComponent(id)}`).catch(() => ({ trip }));
        if (now.updatedAt !== trip.updatedAt) ctx.navigate(`#/trips/${trip._id}?t=${Date.now()}`);
      });
    }
  });
}

/**
 * The trip's events, oldest first: its user's events from a minute before the trip was created (to a minute
 * after it ended), newest first from the user's events index, at most TIMELINE_READ of them. A trip
 * without a known user (created for a userId never tracked) has no user events: the environment's latest
 * 1,000 trip events are searched instead, and the page says so.
 */
async function tripTimeline(ctx: ViewContext, trip: Trip): Promise<{ timeline: EventItem[]; cut?: string }> {
  const mine = (events: EventItem[]) => events.filter((e) => e.trip?._id === trip._id);
  const userId = trip.user?._id;
  if (!userId) {
    const { events } = await ctx.api.get('/v1/events', { types: TRIP_EVENT_TYPES, limit: 1000 });
    return { timeline: mine(events).reverse(), cut: 'The trip has no tracked user: searched the environment’s latest 1,000 trip events.' };
  }
  const minute = 60_000;
  const window = {
    after: new Date(Date.parse(trip.createdAt) - minute).toISOString(),
    before: ENDED.includes(trip.status) ? new Date(Date.parse(trip.updatedAt) + minute).toISOString() : undefined,
  };
  const found: EventItem[] = [];
  let read = 0;
  let last: EventItem | undefined;
  for (;;) {
    const { events, hasMore } = await loadEvents(ctx.api, userId, last, 1000, window);
    found.push(...mine(events));
    read += events.length;
    if (!hasMore || events.length === 0) return { timeline: found.reverse() };
    if (read >= TIMELINE_READ) {
      return { timeline: found.reverse(), cut: `Read the user’s newest ${read.toLocaleString('en')} events since the trip began; older ones of this trip are not shown.` };
    }
    last = events[events.length - 1];
  }
}
