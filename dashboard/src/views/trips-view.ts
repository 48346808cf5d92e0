// Trips: the list, and one trip with its locations on the map and its ETA history (from the trip
// events the API stored for it).
import L from 'leaflet';
import type { ViewContext } from '../context';
import { attempt, h, table, when } from '../elements';
import type { EventItem } from '../events-feed';
import { addGraticule } from '../map/basemap';

const TRIP_EVENT_TYPES = 'user.started_trip,user.updated_trip,user.approaching_trip_destination,user.arrived_at_trip_destination,user.stopped_trip';

export async function tripsView(ctx: ViewContext, id?: string): Promise<void> {
  const error = h('p', { class: 'error', role: 'alert' });
  if (id) return tripDetail(ctx, id, error);
  ctx.root.append(h('h1', {}, `Trips · ${ctx.env}`), error);
  await attempt(error, async () => {
    const { trips } = await ctx.api.get('/v1/trips', { limit: 100 });
    ctx.root.append(h('div', { class: 'card' }, trips.length
      ? table(['Trip', 'Status', 'Mode', 'ETA', 'Updated'], trips.map((t: any) => [
        h('a', { href: `#/trips/${t._id}` }, t.externalId), h('span', { class: 'pill' }, t.status), t.mode,
        t.eta ? `${Math.round(t.eta.duration)} min · ${(t.eta.distance / 1000).toFixed(1)} km` : '—', when(t.updatedAt)]))
      : h('p', { class: 'muted' }, 'No trips yet.')));
  });
}

async function tripDetail(ctx: ViewContext, id: string, error: HTMLElement): Promise<void> {
  ctx.root.append(h('p', {}, h('a', { href: '#/trips' }, '← All trips')), error);
  await attempt(error, async () => {
    const { trip } = await ctx.api.get(`/v1/trips/${encodeURIComponent(id)}`, { includeLocations: true });
    const { events } = await ctx.api.get('/v1/events', { types: TRIP_EVENT_TYPES, limit: 1000 });
    const history = (events as EventItem[]).filter((e) => e.trip?._id === trip._id && e.trip?.eta).reverse();
    const mapEl = h('div', { class: 'map', id: 'trip-map', style: 'height: 360px', 'aria-label': 'The trip’s locations' });
    ctx.root.append(
      h('h1', {}, `Trip ${trip.externalId}`),
      h('p', {}, h('span', { class: 'pill' }, trip.status), ` · ${trip.mode}`, trip.eta ? ` · ETA ${Math.round(trip.eta.duration)} min, ${(trip.eta.distance / 1000).toFixed(1)} km` : ''),
      h('div', { class: 'card' }, mapEl),
      h('div', { class: 'card' }, h('h2', {}, 'ETA history'), history.length
        ? table(['When', 'Event', 'ETA (min)', 'Distance (km)'], history.map((e) => [when(e.createdAt), e.type, Math.round(e.trip!.eta!.duration), (e.trip!.eta!.distance / 1000).toFixed(2)]))
        : h('p', { class: 'muted' }, 'No ETA recorded yet.')));
    const map = L.map(mapEl, { preferCanvas: true }).setView([20, 0], 2);
    ctx.onLeave(() => map.remove());
    addGraticule(map);
    const points = ((trip.locations ?? []) as Array<{ coordinates: [number, number] }>).map((l) => [l.coordinates[1], l.coordinates[0]] as [number, number]);
    if (points.length) {
      const line = L.polyline(points, { color: '#1f6feb', weight: 3 }).addTo(map);
      L.circleMarker(points[points.length - 1], { radius: 6, color: '#2e7d32' }).bindTooltip('last location').addTo(map);
      map.fitBounds(line.getBounds().pad(0.3), { maxZoom: 16 });
    }
    const dest = trip.destinationLocation?.coordinates as [number, number] | undefined;
    if (dest) L.circleMarker([dest[1], dest[0]], { radius: 7, color: '#d35400' }).bindTooltip('destination').addTo(map);
  });
}
