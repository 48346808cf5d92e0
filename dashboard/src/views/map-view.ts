// The map: the geofences and users in view (GET /v1/data/map, bounded by the view whatever the
// environment holds), recent events; click anything for its details, kept live while it is open. New
// geofences are drawn here too.
import L from 'leaflet';
import type { ViewContext } from '../context';
import { poll } from '../context';
import { attempt, h, when } from '../elements';
import { describeEvent, EventFeed } from '../events-feed';
import { addBaseMapAfterFirstDraw, addGraticule, addOutlines } from '../map/basemap';
import { addressSearch, type FoundAddress } from '../map/address-search';
import { DrawTool } from '../map/draw-tool';
import { GeofenceLayer } from '../map/geofence-layer';
import { sketchOf, shapeLabel, type GeofenceSketch, type MapAnswer, type UserPoint } from '../map/map-data';
import { addRoads } from '../map/roads';
import { addBasemap } from '../map/basemap-layer';
import { openingView } from '../map/opening-view';
import { UserLayer } from '../map/user-layer';
import { nextTask } from '../next-task';
import { count } from '../words';
import { geofenceForm } from './geofence-form';

/** Users move: the users in view and the open details are read again this often. */
const LIVE_MS = 3000;

function viewQuery(map: L.Map): { bbox: string; zoom: number } {
  const b = map.getBounds().pad(0.1);
  const clamp = (v: number, lim: number) => Math.max(-lim, Math.min(lim, v));
  const box = [clamp(b.getWest(), 180), clamp(b.getSouth(), 90), clamp(b.getEast(), 180), clamp(b.getNorth(), 90)];
  return { bbox: box.map((v) => v.toFixed(5)).join(','), zoom: Math.round(map.getZoom()) };
}

export async function mapView(ctx: ViewContext): Promise<void> {
  // The view is built over a few tasks (nextTask), none long: the page, the map, the layers, their
  // fonts. The first request goes out at once, and the view stops building if it is left meanwhile.
  let left = false;
  ctx.onLeave(() => { left = true; });
  const opening = openingView(ctx.api);
  opening.catch(() => undefined); // its error is shown where it is awaited, below
  const status = h('p', { class: 'muted', id: 'map-status', 'aria-live': 'polite' }, 'Loading…');
  const details = h('div', { id: 'details' }, h('p', { class: 'muted' }, 'Select a geofence or a user on the map.'));
  const feed = h('ul', { class: 'feed', id: 'map-feed', 'aria-label': 'Recent events' });
  const mapEl = h('div', { class: 'map', id: 'map', role: 'region', 'aria-label': 'Map of geofences, users and events' });
  const drawCircle = h('button', { type: 'button', id: 'draw-circle' }, 'Draw circle');
  const drawPolygon = h('button', { type: 'button', id: 'draw-polygon' }, 'Draw polygon');
  let found: L.Marker | undefined;
  let showFound: (f: FoundAddress) => void = () => undefined;
  const search = addressSearch(ctx, 'Find an address', 'Go', (f) => showFound(f));
  ctx.root.append(h('h1', {}, `Map · ${ctx.env}`), h('div', { class: 'map-layout' },
    mapEl,
    h('aside', { class: 'side', 'aria-label': 'Details' },
      h('div', { class: 'card' }, status, h('div', { class: 'toolbar' }, drawCircle, drawPolygon), search),
      h('div', { class: 'card' }, details),
      h('div', { class: 'card' }, h('h2', {}, 'Recent events'), feed))));
  await nextTask();
  if (left) return;

  // One canvas draws every Leaflet vector layer (base map, events): see basemap.ts.
  const map = L.map(mapEl, { preferCanvas: true, renderer: L.canvas({ padding: 0.2 }), worldCopyJump: true, zoomSnap: 0.5 });
  ctx.onLeave(() => map.remove());
  const eventsLayer = L.layerGroup().addTo(map);
  showFound = ({ at, label }) => {
    found?.remove();
    found = L.marker(at, { title: `Found: ${label}`, alt: `Found: ${label}`, keyboard: true, icon: L.divIcon({ className: 'found-pin', iconSize: [18, 18] }) })
      .addTo(map).bindTooltip(label, { permanent: true, direction: 'top', offset: [0, -10] });
    map.setView(at, Math.max(map.getZoom(), 16), { animate: false });
  };
  const draw = new DrawTool(map);
  /** What the details panel shows, read again every LIVE_MS while it stays open. */
  let refreshDetails: (() => Promise<void>) | undefined;

  const geofenceDetails = async (g: GeofenceSketch) => {
    const path = g.tag && g.externalId ? `/v1/geofences/${encodeURIComponent(g.tag)}/${encodeURIComponent(g.externalId)}/users` : `/v1/geofences/${g._id}/users`;
    const users = ((await ctx.api.get(path, { limit: 100 })).users ?? []) as Array<{ _id: string; userId?: string; deviceId?: string }>;
    details.replaceChildren(
      h('h2', {}, g.description || g._id),
      h('p', {}, `${g.tag ?? '—'} / ${g.externalId ?? '—'} · ${shapeLabel(g)}`,
        g.enabled === false ? h('span', { class: 'pill warn' }, ' disabled') : null),
      h('p', {}, h('a', { href: `#/geofences/${g._id}` }, 'Edit geofence')),
      h('h2', { id: 'inside-h' }, `Users inside (${users.length})`),
      users.length
        ? h('ul', { 'aria-labelledby': 'inside-h' }, users.map((u) => h('li', {}, h('a', { href: `#/users/${u._id}` }, u.userId ?? u.deviceId ?? u._id))))
        : h('p', { class: 'muted' }, 'Nobody is inside now.'),
    );
  };
  const showGeofence = async (g: GeofenceSketch) => {
    if (draw.active) return;
    geofences.select(g._id);
    details.replaceChildren(h('h2', {}, g.description || g._id), h('p', { class: 'muted' }, 'Loading…'));
    refreshDetails = () => geofenceDetails(g);
    await attempt(details, refreshDetails);
  };
  const userDetails = async (id: string) => {
    const { user } = await ctx.api.get(`/v1/users/${encodeURIComponent(id)}`);
    const inside = (user.geofences ?? []) as Array<{ description?: string; tag?: string; externalId?: string }>;
    const trip = user.trip as { _id: string; externalId: string; status: string; eta?: { duration: number } } | undefined;
    details.replaceChildren(
      h('h2', {}, user.userId ?? user.deviceId ?? user._id),
      h('p', { class: 'muted' }, `Last update ${when(user.updatedAt)}`),
      h('p', {}, h('a', { href: `#/users/${user._id}` }, 'User page: history, events, place, beacons, fraud')),
      h('h2', {}, `In geofences (${inside.length})`),
      inside.length ? h('ul', {}, inside.map((g) => h('li', {}, g.description || `${g.tag}/${g.externalId}`))) : h('p', { class: 'muted' }, 'None.'),
      h('h2', {}, 'Trip'),
      trip ? h('p', {}, h('a', { href: `#/trips/${trip._id}` }, `${trip.externalId} · ${trip.status}`), trip.eta ? ` · ETA ${Math.round(trip.eta.duration)} min` : '') : h('p', { class: 'muted' }, 'No active trip.'),
    );
  };
  const showUser = async (u: UserPoint) => {
    geofences.select(undefined);
    details.replaceChildren(h('h2', {}, u.userId ?? u.deviceId ?? u._id), h('p', { class: 'muted' }, 'Loading…'));
    refreshDetails = () => userDetails(u._id);
    await attempt(details, refreshDetails);
  };

  await nextTask();
  if (left) return;
  // Both are drawn when the view's answer comes (load below), not at the end of each move as well.
  const geofences = new GeofenceLayer(map, (g) => void showGeofence(g), ([lng, lat]) => map.setView([lat, lng], map.getZoom() + 2), true);
  const users = new UserLayer(map, (u) => void showUser(u));
  // Both are painted on canvases: a click is theirs by hit test, a user's dot above the geofences.
  map.on('click', (e: L.LeafletMouseEvent) => {
    if (draw.active) return;
    if (!users.hit(e.containerPoint)) geofences.hit(e.containerPoint);
  });

  const newShape = (kind: 'circle' | 'polygon') => {
    refreshDetails = undefined;
    details.replaceChildren(h('p', {}, kind === 'circle' ? 'Click the centre, then click the edge. Escape cancels.' : 'Click each corner; click the first corner or double-click to close. Escape cancels.'));
    draw[kind]((shape) => {
      details.replaceChildren(geofenceForm(ctx, {
        shape,
        onSaved: (g) => { draw.clearPending(); const s = sketchOf(g); geofences.upsert(s); void showGeofence(s); },
        onCancel: () => { draw.clearPending(); details.replaceChildren(h('p', { class: 'muted' }, 'Select a geofence or a user on the map.')); },
      }));
      (details.querySelector('input') as HTMLInputElement | null)?.focus();
    });
  };
  drawCircle.addEventListener('click', () => newShape('circle'));
  drawPolygon.addEventListener('click', () => newShape('polygon'));
  // While the first answers are on the way: the layers' label fonts, a task each.
  void (async () => {
    for (const layer of [geofences, users]) {
      await nextTask();
      if (!left) layer.warm();
    }
  })();

  // What the view holds: read on every move (the latest answer wins) and, for users, every LIVE_MS.
  const generations: Record<string, number> = {};
  let shown = { geofences: 0, users: 0 };
  const say = () => {
    status.textContent = `${count(shown.geofences, 'geofence')}, ${count(shown.users, 'user')} in view`;
  };
  /**
   * The answer is read, the geofences drawn and the users drawn each in a task of its own (nextTask):
   * in one, they were the longest task before the first draw (issue 33). The marks name each step for
   * a trace, and for the test that checks no two of them share a task (map-answer-tasks.test.ts).
   */
  const load = async (include: string) => {
    const mine = (generations[include] = (generations[include] ?? 0) + 1);
    const stale = () => mine !== generations[include];
    const answer = (await ctx.api.get('/v1/data/map', { ...viewQuery(map), include })) as MapAnswer;
    if (stale()) return;
    performance.mark('waymark:map-answer-read');
    if (answer.geofences) {
      await nextTask();
      if (stale()) return;
      geofences.set(answer.geofences.shapes, answer.geofences.cells);
      shown.geofences = answer.geofences.total;
      performance.mark('waymark:geofences-drawn');
    }
    if (answer.users) {
      await nextTask();
      if (stale()) return;
      users.set(answer.users.points, answer.users.cells);
      shown.users = answer.users.total;
      performance.mark('waymark:users-drawn');
    }
    say();
  };

  const started = performance.now();
  await attempt(status, async () => {
    const bounds = await opening;
    if (bounds) map.fitBounds(bounds, { maxZoom: 15, animate: false });
    else map.setView([20, 0], 2, { animate: false });
    await load('geofences,users');
    const ms = Math.round(performance.now() - started);
    mapEl.dataset.ready = String(ms);
    // Since navigation start: what a benchmark reads as "first map drawn". The mark shows it in a
    // performance trace (DevTools, bench/dashboard.ts TRACE=…), which counts up to it.
    mapEl.dataset.drawnAt = String(Math.round(performance.now()));
    performance.mark('waymark:map-drawn');
  });
  map.on('moveend', () => void attempt(status, async () => {
    try {
      await load('geofences,users');
    } catch (err) {
      // No answer for this view: what the layers hold, drawn where it belongs now.
      geofences.redraw();
      users.redraw();
      throw err;
    }
  }));
  // The base map after the data: the outlines are the largest files of the page, and the first draw
  // should wait neither for them nor for their drawing.
  addBaseMapAfterFirstDraw(map, () => {
    const graticule = addGraticule(map);
    addOutlines(map);
    const basemap = addBasemap(map, ctx.api, graticule.toBack);
    void addRoads(map, ctx.api, () => void basemap.then((b) => b.sendAreasBack()));
  });

  const events = new EventFeed(ctx.api);
  const addEvents = async () => {
    const fresh = await events.next(25);
    for (const e of fresh) {
      feed.prepend(h('li', { class: 'fresh' }, h('div', {}, describeEvent(e)), h('small', { class: 'muted' }, when(e.createdAt))));
      const c = e.location?.coordinates;
      if (c) L.circleMarker([c[1], c[0]], { radius: 5, color: '#d35400', fillOpacity: 0.6 }).bindTooltip(describeEvent(e)).addTo(eventsLayer);
    }
    while (feed.children.length > 50) feed.lastElementChild?.remove();
    while (eventsLayer.getLayers().length > 200) eventsLayer.removeLayer(eventsLayer.getLayers()[0]);
  };
  await attempt(null, addEvents);
  poll(ctx, 2000, () => attempt(null, addEvents).then(() => undefined));
  poll(ctx, LIVE_MS, async () => {
    await attempt(null, () => load('users'));
    if (refreshDetails && !draw.active && !details.querySelector('form')) await attempt(null, refreshDetails);
  });
}
