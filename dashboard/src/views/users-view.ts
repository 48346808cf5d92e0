// Users: the list (newest update first) with a search and filters, and one user's page: last location
// and what the API knows of where they have been (their events' and trips' locations, as a track), their
// events, current geofences, place, region, beacons, trip and fraud flags.
import L from 'leaflet';
import { ApiError } from '../api';
import type { ViewContext } from '../context';
import { poll } from '../context';
import { attempt, field, h, table, when } from '../elements';
import type { EventItem } from '../events-feed';
import { fitAndDecorate, smallMap } from '../map/small-map';
import { count, eventLabel } from '../words';

const PAGE = 100;

interface User {
  _id: string; userId?: string; deviceId?: string; description?: string; updatedAt: string; createdAt: string;
  location?: { coordinates: [number, number] }; locationAccuracy?: number;
  geofences?: Array<{ _id: string; description?: string; tag?: string; externalId?: string }>;
  place?: { name: string; categories?: string[]; chain?: { name: string } };
  country?: { name: string }; state?: { name: string }; postalCode?: { code?: string; name?: string };
  beacons?: Array<{ description?: string; tag?: string; externalId?: string }>;
  trip?: { _id: string; externalId: string; status: string; eta?: { duration: number; distance: number } };
  fraud?: Record<string, boolean | string | null>;
  deviceType?: string; stopped?: boolean; foreground?: boolean;
}

const FRAUD_FLAGS = ['mocked', 'jumped', 'compromised', 'inaccurate', 'proxy', 'sharing'] as const;
const nameOf = (u: { userId?: string | null; deviceId?: string | null; _id: string }) => u.userId ?? u.deviceId ?? u._id;
const flagsOf = (u: User) => FRAUD_FLAGS.filter((f) => u.fraud?.[f] === true);

export async function usersView(ctx: ViewContext, id?: string): Promise<void> {
  if (id) return userPage(ctx, decodeURIComponent(id));
  const search = h('input', { name: 'search', type: 'search', placeholder: 'userId, deviceId or _id' });
  const filter = h('select', { name: 'filter' },
    h('option', { value: '' }, 'All users'), h('option', { value: 'trip' }, 'On a trip'), h('option', { value: 'inside' }, 'Inside a geofence'),
    h('option', { value: 'fraud' }, 'With fraud flags'), h('option', { value: 'hour' }, 'Seen in the last hour'));
  const list = h('div', { id: 'user-list', 'aria-live': 'polite' });
  const more = h('button', { type: 'button', hidden: true }, 'Load more');
  const error = h('p', { class: 'error', role: 'alert' });
  const loaded: User[] = [];
  let before: string | undefined;
  let hasMore = false;

  const matches = (u: User) => {
    const q = search.value.trim().toLowerCase();
    if (q && ![u.userId, u.deviceId, u._id, u.description].some((v) => v?.toLowerCase().includes(q))) return false;
    switch (filter.value) {
      case 'trip': return !!u.trip;
      case 'inside': return (u.geofences?.length ?? 0) > 0;
      case 'fraud': return flagsOf(u).length > 0;
      case 'hour': return Date.now() - Date.parse(u.updatedAt) < 3600_000;
      default: return true;
    }
  };
  const render = () => {
    const shown = loaded.filter(matches);
    list.replaceChildren(shown.length
      ? table(['User', 'Device', 'Last seen', 'Geofences', 'Trip', 'Fraud'], shown.map((u) => [
        h('a', { href: `#/users/${u._id}` }, nameOf(u)), u.deviceType ?? '—', when(u.updatedAt),
        u.geofences?.length ? u.geofences.map((g) => g.description || g.externalId).join(', ') : '—',
        u.trip ? h('a', { href: `#/trips/${u.trip._id}` }, `${u.trip.externalId} · ${u.trip.status}`) : '—',
        flagsOf(u).length ? h('span', { class: 'pill bad' }, flagsOf(u).join(', ')) : '—',
      ]), `${count(shown.length, 'user')} shown of ${count(loaded.length, 'user')} loaded${hasMore ? ' (more on the server: Load more)' : ''}`)
      : h('p', { class: 'muted' }, loaded.length ? 'No loaded user matches.' : 'No users yet: they appear with their first location update.'));
    more.hidden = !hasMore;
  };
  const load = async (reset: boolean) => {
    if (reset) { loaded.length = 0; before = undefined; }
    const page = await ctx.api.get('/v1/users', { limit: PAGE, updatedBefore: before });
    const items = (page.users ?? []) as User[];
    loaded.push(...items);
    hasMore = !!page.meta?.hasMore;
    before = items.length ? items[items.length - 1].updatedAt : before;
    render();
  };
  const form = h('form', { class: 'row', role: 'search', 'aria-label': 'Find users' }, field('Search', search, 'An exact id opens that user; other text filters the loaded users.'), field('Show', filter), h('button', { type: 'submit' }, 'Search'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void attempt(error, async () => {
      const q = search.value.trim();
      if (q) {
        try {
          const { user } = await ctx.api.get(`/v1/users/${encodeURIComponent(q)}`);
          return ctx.navigate(`#/users/${user._id}`);
        } catch (err) {
          if (!(err instanceof ApiError && err.status === 404)) throw err;
        }
      }
      render();
    });
  });
  filter.addEventListener('change', render);
  search.addEventListener('input', render);
  more.addEventListener('click', () => void attempt(error, () => load(false)));
  ctx.root.append(h('h1', {}, `Users · ${ctx.env}`), h('div', { class: 'card' }, form, error, list, more));
  await attempt(error, () => load(true));
}

async function userPage(ctx: ViewContext, id: string): Promise<void> {
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
