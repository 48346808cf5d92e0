// Users: the list (newest update first) searched and filtered by the server over every user (GET /v1/users
// with our filters, users-query.ts); one user's page is user-page.ts. "Inside geofence…" picks a geofence
// by its tag/externalId or description among the first 100, or by its _id, or any tag/externalId. The list
// is live (every LIVE_MS): unfiltered, the users updated since its newest come to its top; an exact filter's
// first page is asked again; a scan is not repeated (it would read thousands of users each time).
import { ApiError } from '../api';
import { poll, type ViewContext } from '../context';
import { attempt, field, h, table, when } from '../elements';
import { flagsOf, nameOf, type User } from './user-model';
import { userPage } from './user-page';
import { exact, exactLine, listLine, scans, SHOW_CHOICES, usersQuery, type Show } from './users-query';

interface GeofenceChoice { _id: string; tag?: string; externalId?: string; description?: string }
const OBJECT_ID = /^[0-9a-f]{24}$/;
const nameOfGeofence = (g: GeofenceChoice) => g.description || `${g.tag ?? ''}/${g.externalId ?? ''}`;

const PAGE = 100;
// A filtered request examines at most 5,000 users (the server's bound): one "load" goes on through a
// few of them while it has found less than a page, then leaves the rest to "Load more".
const SCANS_PER_LOAD = 4;
const TYPING_PAUSE_MS = 300;
const LIVE_MS = 5000;

export async function usersView(ctx: ViewContext, id?: string): Promise<void> {
  if (id) return userPage(ctx, decodeURIComponent(id));
  const search = h('input', { name: 'search', type: 'search', placeholder: 'userId, deviceId, _id or description', maxlength: '256' });
  const filter = h('select', { name: 'filter' }, SHOW_CHOICES.map(([value, label]) => h('option', { value }, label)));
  const geofence = h('input', { name: 'geofence', list: 'user-geofences', placeholder: 'tag/externalId, description or _id', maxlength: '300' });
  const geofences = h('datalist', { id: 'user-geofences' });
  const geofenceField = field('Geofence', geofence, 'The users inside it now, counted exactly.');
  geofenceField.hidden = true;
  const known: GeofenceChoice[] = [];
  let geofenceName = '';
  const list = h('div', { id: 'user-list', 'aria-live': 'polite' });
  const more = h('button', { type: 'button', hidden: true }, 'Load more');
  const error = h('p', { class: 'error', role: 'alert' });
  const shown: User[] = [];
  const seen = new Set<string>();
  let query: Record<string, string> = {};
  let cursor: Record<string, string> | undefined;
  let scanned = 0;
  let total: number | undefined;
  let capped = false;
  // The server answered from its linked rows (meta.exact said, true or capped): fraud=true is, once the
  // environment's flagged-users rows are complete, which only the answer tells.
  let linked = false;
  // Answers of a query typed over since are dropped: only the latest query draws.
  let generation = 0;

  const line = () => {
    const what = query.geofenceId ? `inside ${geofenceName}` : query.onTrip === 'true' ? 'on a trip' : query.inside === 'true' ? 'inside a geofence' : 'with fraud flags';
    if (exact(query) || linked) return exactLine({ found: shown.length, total, capped, more: cursor !== undefined, what, narrowed: Object.keys(query).length > 1 });
    const filtered = scans(query);
    return listLine(shown.length, filtered ? scanned : undefined, filtered, cursor !== undefined);
  };
  const render = () => {
    list.replaceChildren(shown.length
      ? table(['User', 'Device', 'Last seen', 'Geofences', 'Trip', 'Fraud'], shown.map((u) => [
        h('a', { href: `#/users/${u._id}` }, nameOf(u)), u.deviceType ?? '—', when(u.updatedAt),
        u.geofences?.length ? u.geofences.map((g) => g.description || g.externalId).join(', ') : '—',
        u.trip ? h('a', { href: `#/trips/${u.trip._id}` }, `${u.trip.externalId} · ${u.trip.status}`) : '—',
        flagsOf(u).length ? h('span', { class: 'pill bad' }, flagsOf(u).join(', ')) : '—',
      ]), line())
      : h('p', { class: 'muted' }, Object.keys(query).length
        ? `${line()}.`
        : 'No users yet: they appear with their first location update.'));
    more.hidden = cursor === undefined;
    list.removeAttribute('aria-busy');
    list.dataset.query = new URLSearchParams(query).toString();
  };
  const load = async (reset: boolean) => {
    const mine = reset ? ++generation : generation;
    if (reset) {
      const show = filter.value as Show;
      const picked = show === 'geofence' ? await pickedGeofence() : undefined;
      if (mine !== generation) return;
      geofenceName = picked ? nameOfGeofence(picked) : '';
      query = usersQuery(search.value.trim(), show, Date.now(), picked?._id);
      shown.length = 0; seen.clear(); cursor = undefined; scanned = 0; total = undefined; capped = false; linked = false;
    }
    list.setAttribute('aria-busy', 'true');
    for (let request = 0; request < SCANS_PER_LOAD; request++) {
      const page = await ctx.api.get('/v1/users', { limit: PAGE, ...query, ...cursor });
      if (mine !== generation) return;
      const items = (page.users ?? []) as User[];
      for (const u of items) if (!seen.has(u._id)) { seen.add(u._id); shown.push(u); }
      scanned += Number(page.meta?.scanned ?? 0);
      if (typeof page.meta?.total === 'number') total = page.meta.total;
      capped = page.meta?.capped === true;
      linked = typeof page.meta?.exact === 'boolean';
      const last = items[items.length - 1];
      cursor = !page.meta?.hasMore ? undefined
        : page.meta.next ?? (last ? { updatedBefore: last.updatedAt, beforeId: last._id } : undefined);
      if (!cursor || items.length >= PAGE || !scans(query) || linked) break;
    }
    render();
  };
  /** The geofence the Geofence box names: one of the first 100 by tag/externalId or description, an _id, or any tag/externalId. */
  const pickedGeofence = async (): Promise<GeofenceChoice | undefined> => {
    const text = geofence.value.trim();
    if (!text) return undefined;
    const listed = known.find((g) => `${g.tag}/${g.externalId}` === text || g.description === text || g._id === text);
    if (listed) return listed;
    const slash = text.indexOf('/');
    const path = OBJECT_ID.test(text) ? `/v1/geofences/${text}`
      : slash > 0 ? `/v1/geofences/${encodeURIComponent(text.slice(0, slash))}/${encodeURIComponent(text.slice(slash + 1))}` : undefined;
    if (!path) throw new Error(`No geofence "${text}" among the first 100: give its tag/externalId or _id`);
    try {
      return (await ctx.api.get(path)).geofence as GeofenceChoice;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) throw new Error(`No geofence "${text}"`);
      throw err;
    }
  };
  const showGeofences = async () => {
    geofenceField.hidden = filter.value !== 'geofence';
    if (geofenceField.hidden || known.length) return;
    const page = await ctx.api.get('/v1/geofences', { limit: 100 });
    known.push(...((page.geofences ?? []) as GeofenceChoice[]));
    geofences.replaceChildren(...known.map((g) => h('option', { value: g.tag && g.externalId ? `${g.tag}/${g.externalId}` : g._id }, nameOfGeofence(g))));
  };
  let typing: ReturnType<typeof setTimeout> | undefined;
  const reload = () => { clearTimeout(typing); void attempt(error, () => load(true)); };
  const form = h('form', { class: 'row', role: 'search', 'aria-label': 'Find users' },
    field('Search', search, 'Searches every user: a userId, deviceId or _id by its start, a description by any part. Enter an exact id to open that user.'),
    field('Show', filter), geofenceField, geofences, h('button', { type: 'submit' }, 'Search'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearTimeout(typing);
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
      await load(true);
    });
  });
  filter.addEventListener('change', () => {
    void attempt(error, showGeofences);
    if (filter.value === 'geofence' && !geofence.value.trim()) { geofence.focus(); return; }
    reload();
  });
  geofence.addEventListener('change', reload);
  search.addEventListener('input', () => { clearTimeout(typing); typing = setTimeout(reload, TYPING_PAUSE_MS); });
  more.addEventListener('click', () => void attempt(error, () => load(false)));
  const refresh = async () => {
    if (Object.keys(query).length > 0) {
      // An exact filter's answer comes from indexes, cheap to ask again while only its first page is shown.
      if ((exact(query) || linked) && shown.length <= PAGE) await load(true);
      return;
    }
    const mine = generation;
    const since = shown.reduce((newest, u) => (u.updatedAt > newest ? u.updatedAt : newest), '');
    const page = await ctx.api.get('/v1/users', since ? { limit: PAGE, order: 'asc', updatedAfter: since } : { limit: PAGE });
    if (mine !== generation) return;
    const fresh = (page.users ?? []) as User[];
    if (fresh.length === 0) return;
    // More came than a page: the list starts again from the newest.
    if (page.meta?.hasMore) return load(true);
    for (const u of fresh) {
      const at = shown.findIndex((s) => s._id === u._id);
      if (at >= 0) shown.splice(at, 1);
      else seen.add(u._id);
      shown.unshift(u);
    }
    render();
  };
  poll(ctx, LIVE_MS, () => attempt(error, refresh).then(() => undefined));
  ctx.root.append(h('h1', {}, `Users · ${ctx.env}`), h('div', { class: 'card' }, form, error, list, more));
  await attempt(error, () => load(true));
}
