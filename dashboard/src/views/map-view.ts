// The map: geofences as their shapes, users at their last location, recent events; click anything for
// its details. New geofences are drawn here too.
import L from 'leaflet';
import { listAll } from '../api';
import type { ViewContext } from '../context';
import { poll } from '../context';
import { attempt, h, when } from '../elements';
import { describeEvent, EventFeed } from '../events-feed';
import { addGraticule, addOutlines } from '../map/basemap';
import { DrawTool } from '../map/draw-tool';
import { GeofenceLayer, type GeofenceShape } from '../map/geofence-layer';
import { addRoads } from '../map/roads';
import { UserLayer, type UserPoint } from '../map/user-layer';
import { geofenceForm } from './geofence-form';

/** The most of each the map loads; past this it says so rather than freezing the page. */
const MAX_GEOFENCES = 50000;
const MAX_USERS = 50000;

export async function mapView(ctx: ViewContext): Promise<void> {
  const status = h('p', { class: 'muted', id: 'map-status', 'aria-live': 'polite' }, 'Loading…');
  const details = h('div', { id: 'details' }, h('p', { class: 'muted' }, 'Select a geofence or a user on the map.'));
  const feed = h('ul', { class: 'feed', id: 'map-feed', 'aria-label': 'Recent events' });
  const mapEl = h('div', { class: 'map', id: 'map', role: 'region', 'aria-label': 'Map of geofences, users and events' });
  const drawCircle = h('button', { type: 'button', id: 'draw-circle' }, 'Draw circle');
  const drawPolygon = h('button', { type: 'button', id: 'draw-polygon' }, 'Draw polygon');
  ctx.root.append(h('h1', {}, `Map · ${ctx.env}`), h('div', { class: 'map-layout' },
    mapEl,
    h('aside', { class: 'side', 'aria-label': 'Details' },
      h('div', { class: 'card' }, status, h('div', { class: 'toolbar' }, drawCircle, drawPolygon)),
      h('div', { class: 'card' }, details),
      h('div', { class: 'card' }, h('h2', {}, 'Recent events'), feed))));

  const map = L.map(mapEl, { preferCanvas: true, worldCopyJump: true, zoomSnap: 0.5 }).setView([20, 0], 2);
  ctx.onLeave(() => map.remove());
  addGraticule(map);
  addOutlines(map);
  void addRoads(map, ctx.api);
  const eventsLayer = L.layerGroup().addTo(map);
  const draw = new DrawTool(map);

  const showGeofence = async (g: GeofenceShape) => {
    if (draw.active) return;
    geofences.select(g._id);
    details.replaceChildren(h('h2', {}, g.description || g._id), h('p', { class: 'muted' }, 'Loading…'));
    await attempt(details, async () => {
      const path = g.tag && g.externalId ? `/v1/geofences/${encodeURIComponent(g.tag)}/${encodeURIComponent(g.externalId)}/users` : undefined;
      const users = path ? ((await ctx.api.get(path, { limit: 100 })).users ?? []) as UserPoint[] : [];
      details.replaceChildren(
        h('h2', {}, g.description || g._id),
        h('p', {}, `${g.tag ?? '—'} / ${g.externalId ?? '—'} · ${g.type}${g.geometryRadius ? ` · ${g.geometryRadius} m` : ''}`,
          g.enabled === false ? h('span', { class: 'pill warn' }, ' disabled') : null),
        h('p', {}, h('a', { href: `#/geofences/${g._id}` }, 'Edit geofence')),
        h('h2', {}, `Users inside (${users.length})`),
        users.length ? h('ul', {}, users.map((u) => h('li', {}, u.userId ?? u.deviceId ?? u._id))) : h('p', { class: 'muted' }, 'Nobody is inside now.'),
      );
    });
  };
  const showUser = async (u: UserPoint) => {
    details.replaceChildren(h('h2', {}, u.userId ?? u.deviceId ?? u._id), h('p', { class: 'muted' }, 'Loading…'));
    await attempt(details, async () => {
      const { user } = await ctx.api.get(`/v1/users/${encodeURIComponent(u._id)}`);
      const inside = (user.geofences ?? []) as GeofenceShape[];
      const trip = user.trip as { _id: string; externalId: string; status: string; eta?: { duration: number } } | undefined;
      details.replaceChildren(
        h('h2', {}, user.userId ?? user.deviceId ?? user._id),
        h('p', { class: 'muted' }, `Last update ${when(user.updatedAt)}`),
        h('h2', {}, `In geofences (${inside.length})`),
        inside.length ? h('ul', {}, inside.map((g) => h('li', {}, g.description || `${g.tag}/${g.externalId}`))) : h('p', { class: 'muted' }, 'None.'),
        h('h2', {}, 'Trip'),
        trip ? h('p', {}, h('a', { href: `#/trips/${trip._id}` }, `${trip.externalId} · ${trip.status}`), trip.eta ? ` · ETA ${Math.round(trip.eta.duration)} min` : '') : h('p', { class: 'muted' }, 'No active trip.'),
        h('p', {}, h('a', { href: `#/events?user=${encodeURIComponent(user.userId ?? user.deviceId ?? user._id)}` }, 'Recent events of this user')),
      );
    });
  };

  const geofences = new GeofenceLayer(map, (g) => void showGeofence(g));
  const users = new UserLayer(map, (u) => void showUser(u));

  const newShape = (kind: 'circle' | 'polygon') => {
    details.replaceChildren(h('p', {}, kind === 'circle' ? 'Click the centre, then click the edge. Escape cancels.' : 'Click each corner; click the first corner or double-click to close. Escape cancels.'));
    draw[kind]((shape) => {
      details.replaceChildren(geofenceForm(ctx, { shape, onSaved: (g) => { geofences.add([g]); void showGeofence(g); } }));
      (details.querySelector('input') as HTMLInputElement | null)?.focus();
    });
  };
  drawCircle.addEventListener('click', () => newShape('circle'));
  drawPolygon.addEventListener('click', () => newShape('polygon'));

  const started = performance.now();
  await attempt(status, async () => {
    const [gs, us] = await Promise.all([
      listAll<GeofenceShape>(ctx.api, '/v1/geofences', 'geofences', {}, MAX_GEOFENCES),
      loadUsers(ctx, MAX_USERS),
    ]);
    geofences.set(gs);
    users.set(us);
    const frame = geofences.bounds();
    if (frame) map.fitBounds(frame.pad(0.2), { maxZoom: 15 });
    const ms = Math.round(performance.now() - started);
    status.textContent = `${gs.length} geofences, ${users.count} users with a location · loaded in ${ms} ms`;
    mapEl.dataset.ready = String(ms);
  });

  const events = new EventFeed(ctx.api);
  const addEvents = async () => {
    const fresh = await events.next(25);
    for (const e of fresh) {
      feed.prepend(h('li', { class: 'fresh' }, h('div', {}, describeEvent(e)), h('small', { class: 'muted' }, when(e.createdAt))));
      const c = e.location?.coordinates;
      if (c) L.circleMarker([c[1], c[0]], { radius: 5, color: '#d35400', fillOpacity: 0.6 }).bindTooltip(e.type).addTo(eventsLayer);
    }
    while (feed.children.length > 50) feed.lastElementChild?.remove();
  };
  await attempt(null, addEvents);
  poll(ctx, 2000, () => attempt(null, addEvents).then(() => undefined));
}

/** Users are listed by `updatedAt`, so they page by `updatedBefore`. */
async function loadUsers(ctx: ViewContext, max: number): Promise<UserPoint[]> {
  const all: UserPoint[] = [];
  let before: string | undefined;
  while (all.length < max) {
    const page = await ctx.api.get('/v1/users', { limit: 1000, updatedBefore: before });
    const items = (page.users ?? []) as UserPoint[];
    all.push(...items);
    if (!page.meta?.hasMore || items.length === 0) break;
    before = items[items.length - 1].updatedAt;
  }
  return all;
}
