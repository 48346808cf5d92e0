// One user's page: last location and their location history over a chosen period as a track, their own
// events, current geofences, place, region, beacons, trip and fraud flags.
import L from 'leaflet';
import type { ViewContext } from '../context';
import { poll } from '../context';
import { attempt, field, h, table, when } from '../elements';
import type { EventItem } from '../events-feed';
import { describeLocation, drawTrack, type DrawnTrack } from '../map/location-track';
import { fitAndDecorate, smallMap } from '../map/small-map';
import { count, eventLabel, thousands } from '../words';
import { flagsOf, nameOf, type User } from './user-model';
import { PERIODS, TRACK_CAP, loadEvents, loadTrack, type Period } from './user-history';

/** The period chosen last, kept across the page's reloads (it reloads when the user moves). */
const PERIOD_KEY = 'waymark.dashboard.trackPeriod';
/** Locations listed under the map (all are drawn): the list is the keyboard's way to the points. */
const LISTED = 100;

function savedPeriod(): Period {
  const saved = sessionStorage.getItem(PERIOD_KEY);
  return PERIODS.find((p) => p.value === saved)?.value ?? 'day';
}

export async function userPage(ctx: ViewContext, id: string): Promise<void> {
  const error = h('p', { class: 'error', role: 'alert' });
  ctx.root.append(h('p', {}, h('a', { href: '#/users' }, '← All users')), error);
  await attempt(error, async () => {
    const { user } = (await ctx.api.get(`/v1/users/${encodeURIComponent(id)}`)) as { user: User };
    let period = savedPeriod();
    const [track, firstEvents, { trips }] = await Promise.all([
      loadTrack(ctx.api, user._id, period),
      loadEvents(ctx.api, user._id),
      ctx.api.get('/v1/trips', { userId: user._id, limit: 10 }),
    ]);
    const mapEl = h('div', { class: 'map', id: 'user-map', style: 'height: 340px', role: 'region', 'aria-label': 'The user’s last location and location history' });
    const flags = flagsOf(user);
    const where = [user.place?.name, user.postalCode?.code ?? user.postalCode?.name, user.state?.name, user.country?.name].filter(Boolean).join(', ');

    const periodSelect = h('select', { name: 'period' }, PERIODS.map((p) => h('option', { value: p.value, selected: p.value === period }, p.label)));
    const trackStatus = h('p', { id: 'track-status', role: 'status' });
    const trackList = h('div', { id: 'track-list' });
    const eventRows = h('div', { id: 'user-events' });
    const moreEvents = h('button', { type: 'button', hidden: true }, 'Older events');

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
      h('section', { class: 'card', 'aria-labelledby': 'user-track-h' }, h('h2', { id: 'user-track-h' }, 'Location history'),
        field('Period', periodSelect), trackStatus, trackList),
      h('section', { class: 'card', 'aria-labelledby': 'user-events-h' }, h('h2', { id: 'user-events-h' }, 'Events'), eventRows, moreEvents),
      h('section', { class: 'card', 'aria-labelledby': 'user-trips-h' }, h('h2', { id: 'user-trips-h' }, 'Trips'),
        trips.length ? table(['Trip', 'Status', 'Updated'], trips.map((t: any) => [h('a', { href: `#/trips/${t._id}` }, t.externalId), t.status, when(t.updatedAt)])) : h('p', { class: 'muted' }, 'No trips.')),
    );

    const map = smallMap(ctx, mapEl);
    const last = user.location ? [user.location.coordinates[1], user.location.coordinates[0]] as [number, number] : undefined;
    let drawn: DrawnTrack | undefined;
    let lastMarker: L.CircleMarker | undefined;
    const showTrack = (result: typeof track) => {
      drawn?.remove();
      drawn = drawTrack(map, result.locations);
      // The last location stays on top of a track drawn after it.
      lastMarker?.bringToFront();
      const label = PERIODS.find((p) => p.value === period)?.label.toLowerCase() ?? '';
      const n = result.locations.length;
      trackStatus.textContent = n === 0 ? `No location recorded in the ${label}.`
        : result.capped ? `Showing the newest ${thousands(TRACK_CAP)} locations of the ${label}; older ones are not drawn.`
          : `${count(n, 'location')} in the ${label}.`;
      const listed = result.locations.slice(0, LISTED);
      trackList.replaceChildren(n === 0 ? '' : h('details', {},
        h('summary', {}, n > LISTED ? `The newest ${LISTED} locations as a list` : 'The locations as a list'),
        table(['When', 'Details', ''], listed.map((l) => [
          when(l.createdAt), describeLocation(l).split(' · ').slice(1).join(' · '),
          h('button', { type: 'button', 'aria-label': `Show on map: ${when(l.createdAt)}`, onclick: () => drawn?.show(l._id) }, 'Show on map'),
        ]))));
      mapEl.dataset.track = String(n);
      mapEl.dataset.capped = String(result.capped);
      mapEl.dataset.period = period;
    };
    // The view first: layers added to a map without one cannot be drawn.
    const trackPoints = track.locations.map((l) => [l.location.coordinates[1], l.location.coordinates[0]] as [number, number]);
    fitAndDecorate(map, ctx.api, last ? [...trackPoints, last] : trackPoints);
    showTrack(track);
    if (last) {
      if (user.locationAccuracy) L.circle(last, { radius: user.locationAccuracy, color: '#2e7d32', weight: 1, fillOpacity: 0.1, interactive: false }).addTo(map);
      lastMarker = L.circleMarker(last, { radius: 7, color: '#fff', weight: 2, fillColor: '#2e7d32', fillOpacity: 1 }).bindTooltip('last location').addTo(map);
    }

    periodSelect.addEventListener('change', () => void attempt(error, async () => {
      period = periodSelect.value as Period;
      sessionStorage.setItem(PERIOD_KEY, period);
      trackStatus.textContent = 'Loading…';
      const next = await loadTrack(ctx.api, user._id, period);
      showTrack(next);
      const points = last ? [...(drawn?.points ?? []), last] : drawn?.points ?? [];
      if (points.length) map.fitBounds(L.latLngBounds(points).pad(0.25), { maxZoom: 16, animate: false });
    }));

    // The user's own events, newest first, a page at a time.
    const shown: EventItem[] = [];
    const showEvents = (page: { events: EventItem[]; hasMore: boolean }) => {
      shown.push(...page.events);
      eventRows.replaceChildren(shown.length
        ? table(['When', 'Event', 'Where'], shown.map((e) => [when(e.createdAt), eventLabel(e.type), e.geofence?.description ?? e.trip?.externalId ?? '—']))
        : h('p', { class: 'muted' }, 'No events.'));
      moreEvents.hidden = !page.hasMore;
    };
    showEvents(firstEvents);
    moreEvents.addEventListener('click', () => void attempt(error, async () => showEvents(await loadEvents(ctx.api, user._id, shown.at(-1)))));

    // The page follows the user: a new location or event reloads it.
    poll(ctx, 5000, async () => {
      const { user: now } = await ctx.api.get(`/v1/users/${encodeURIComponent(user._id)}`).catch(() => ({ user }));
      if (now.updatedAt !== user.updatedAt) ctx.navigate(`#/users/${user._id}?t=${Date.now()}`);
    });
  });
}
