// One user's page: last location and what the API knows of where they have been (their events' and
// trips' locations, as a track), their events, current geofences, place, region, beacons, trip and fraud flags.
import L from 'leaflet';
import type { ViewContext } from '../context';
import { poll } from '../context';
import { attempt, h, table, when } from '../elements';
import type { EventItem } from '../events-feed';
import { fitAndDecorate, smallMap } from '../map/small-map';
import { eventLabel } from '../words';
import { flagsOf, nameOf, type User } from './user-model';

export async function userPage(ctx: ViewContext, id: string): Promise<void> {
  const error = h('p', { class: 'error', role: 'alert' });
  ctx.root.append(h('p', {}, h('a', { href: '#/users' }, '← All users')), error);
  await attempt(error, async () => {
    const { user } = (await ctx.api.get(`/v1/users/${encodeURIComponent(id)}`)) as { user: User };
    const [{ events }, { trips }] = await Promise.all([
      ctx.api.get('/v1/events', { limit: 1000 }),
      ctx.api.get('/v1/trips', { userId: user._id, includeLocations: true, limit: 10 }),
    ]);
    const mine = (events as EventItem[]).filter((e) => e.user?._id === user._id);
    const mapEl = h('div', { class: 'map', id: 'user-map', style: 'height: 340px', role: 'region', 'aria-label': 'The user’s last location and track' });
    const flags = flagsOf(user);
    const where = [user.place?.name, user.postalCode?.code ?? user.postalCode?.name, user.state?.name, user.country?.name].filter(Boolean).join(', ');
    ctx.root.append(
      h('h1', {}, nameOf(user)),
      h('p', { class: 'muted' }, `Last update ${when(user.updatedAt)}${user.locationAccuracy ? ` · accuracy ${Math.round(user.locationAccuracy)} m` : ''}${user.deviceType ? ` · ${user.deviceType}` : ''}${user.stopped ? ' · stopped' : ''}`),
      h('div', { class: 'map-layout', style: 'height:auto' }, mapEl, h('div', { class: 'card', id: 'user-facts' },
        h('h2', {}, 'Where'), h('p', {}, where || '—'),
        h('h2', {}, `Geofences (${user.geofences?.length ?? 0})`),
        user.geofences?.length ? h('ul', {}, user.geofences.map((g) => h('li', {}, h('a', { href: `#/geofences/${g._id}` }, g.description || `${g.tag}/${g.externalId}`)))) : h('p', { class: 'muted' }, 'Not inside any geofence.'),
        h('h2', {}, 'Place'), user.place ? h('p', {}, `${user.place.name}${user.place.chain ? ` (${user.place.chain.name})` : ''}${user.place.categories?.length ? ` · ${user.place.categories.join(', ')}` : ''}`) : h('p', { class: 'muted' }, 'No place.'),
        h('h2', {}, `Beacons (${user.beacons?.length ?? 0})`),
        user.beacons?.length ? h('ul', {}, user.beacons.map((b) => h('li', {}, b.description || `${b.tag}/${b.externalId}`))) : h('p', { class: 'muted' }, 'No beacon in range.'),
        h('h2', {}, 'Trip'),
        user.trip ? h('p', {}, h('a', { href: `#/trips/${user.trip._id}` }, `${user.trip.externalId} · ${user.trip.status}`), user.trip.eta ? ` · ETA ${Math.round(user.trip.eta.duration)} min` : '') : h('p', { class: 'muted' }, 'No active trip.'),
        h('h2', {}, 'Fraud checks'),
        h('p', { id: 'fraud-flags' }, flags.length ? flags.map((f) => h('span', { class: 'pill bad' }, f)) : user.fraud ? h('span', { class: 'pill ok' }, user.fraud.passed === false ? 'failed' : 'no flags') : h('span', { class: 'muted' }, 'Not checked (fraud checks off)')))),
      h('section', { class: 'card', 'aria-labelledby': 'user-events-h' }, h('h2', { id: 'user-events-h' }, `Events (${mine.length} of the environment’s latest 1,000)`),
        mine.length ? table(['When', 'Event', 'Where'], mine.slice(0, 100).map((e) => [when(e.createdAt), eventLabel(e.type), e.geofence?.description ?? e.trip?.externalId ?? '—'])) : h('p', { class: 'muted' }, 'No recent events.')),
      h('section', { class: 'card', 'aria-labelledby': 'user-trips-h' }, h('h2', { id: 'user-trips-h' }, 'Trips'),
        trips.length ? table(['Trip', 'Status', 'Updated'], trips.map((t: any) => [h('a', { href: `#/trips/${t._id}` }, t.externalId), t.status, when(t.updatedAt)])) : h('p', { class: 'muted' }, 'No trips.')),
    );
    const map = smallMap(ctx, mapEl);
    // The track: event locations and trip locations in time order; Waymark keeps no other history.
    const fixes: Array<{ at: string; p: [number, number] }> = [];
    for (const e of mine) if (e.location) fixes.push({ at: e.createdAt, p: [e.location.coordinates[1], e.location.coordinates[0]] });
    for (const t of trips as Array<{ locations?: Array<{ coordinates: [number, number]; updatedAt?: string }> }>) {
      for (const l of t.locations ?? []) fixes.push({ at: l.updatedAt ?? '', p: [l.coordinates[1], l.coordinates[0]] });
    }
    fixes.sort((a, b) => a.at.localeCompare(b.at));
    const track = fixes.map((f) => f.p);
    if (track.length > 1) L.polyline(track, { color: '#1f6feb', weight: 3, opacity: 0.7 }).addTo(map);
    const last = user.location ? [user.location.coordinates[1], user.location.coordinates[0]] as [number, number] : undefined;
    if (last) {
      if (user.locationAccuracy) L.circle(last, { radius: user.locationAccuracy, color: '#2e7d32', weight: 1, fillOpacity: 0.1 }).addTo(map);
      L.circleMarker(last, { radius: 7, color: '#fff', weight: 2, fillColor: '#2e7d32', fillOpacity: 1 }).bindTooltip('last location').addTo(map);
    }
    fitAndDecorate(map, ctx.api, last ? [...track, last] : track);
    mapEl.dataset.track = String(track.length);
    // The page follows the user: a new location or event reloads it.
    poll(ctx, 5000, async () => {
      const { user: now } = await ctx.api.get(`/v1/users/${encodeURIComponent(user._id)}`).catch(() => ({ user }));
      if (now.updatedAt !== user.updatedAt) ctx.navigate(`#/users/${user._id}?t=${Date.now()}`);
    });
  });
}
