// Users: the list (newest update first) with a search and filters; one user's page is user-page.ts.
import { ApiError } from '../api';
import type { ViewContext } from '../context';
import { attempt, field, h, table, when } from '../elements';
import { count } from '../words';
import { flagsOf, nameOf, type User } from './user-model';
import { userPage } from './user-page';

const PAGE = 100;

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

