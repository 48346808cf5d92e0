// Users: the list (newest update first) searched and filtered by the server over every user (GET /v1/users
// with our filters, users-query.ts); one user's page is user-page.ts.
import { ApiError } from '../api';
import type { ViewContext } from '../context';
import { attempt, field, h, table, when } from '../elements';
import { flagsOf, nameOf, type User } from './user-model';
import { userPage } from './user-page';
import { listLine, scans, SHOW_CHOICES, usersQuery, type Show } from './users-query';

const PAGE = 100;
// A filtered request examines at most 5,000 users (the server's bound): one "load" goes on through a
// few of them while it has found less than a page, then leaves the rest to "Load more".
const SCANS_PER_LOAD = 4;
const TYPING_PAUSE_MS = 300;

export async function usersView(ctx: ViewContext, id?: string): Promise<void> {
  if (id) return userPage(ctx, decodeURIComponent(id));
  const search = h('input', { name: 'search', type: 'search', placeholder: 'userId, deviceId, _id or description', maxlength: '256' });
  const filter = h('select', { name: 'filter' }, SHOW_CHOICES.map(([value, label]) => h('option', { value }, label)));
  const list = h('div', { id: 'user-list', 'aria-live': 'polite' });
  const more = h('button', { type: 'button', hidden: true }, 'Load more');
  const error = h('p', { class: 'error', role: 'alert' });
  const shown: User[] = [];
  const seen = new Set<string>();
  let query: Record<string, string> = {};
  let cursor: Record<string, string> | undefined;
  let scanned = 0;
  // Answers of a query typed over since are dropped: only the latest query draws.
  let generation = 0;

  const render = () => {
    const filtered = scans(query);
    list.replaceChildren(shown.length
      ? table(['User', 'Device', 'Last seen', 'Geofences', 'Trip', 'Fraud'], shown.map((u) => [
        h('a', { href: `#/users/${u._id}` }, nameOf(u)), u.deviceType ?? '—', when(u.updatedAt),
        u.geofences?.length ? u.geofences.map((g) => g.description || g.externalId).join(', ') : '—',
        u.trip ? h('a', { href: `#/trips/${u.trip._id}` }, `${u.trip.externalId} · ${u.trip.status}`) : '—',
        flagsOf(u).length ? h('span', { class: 'pill bad' }, flagsOf(u).join(', ')) : '—',
      ]), listLine(shown.length, filtered ? scanned : undefined, filtered, cursor !== undefined))
      : h('p', { class: 'muted' }, Object.keys(query).length
        ? `${listLine(0, filtered ? scanned : undefined, filtered, cursor !== undefined)}.`
        : 'No users yet: they appear with their first location update.'));
    more.hidden = cursor === undefined;
    list.removeAttribute('aria-busy');
    list.dataset.query = new URLSearchParams(query).toString();
  };
  const load = async (reset: boolean) => {
    const mine = reset ? ++generation : generation;
    if (reset) {
      query = usersQuery(search.value.trim(), filter.value as Show, Date.now());
      shown.length = 0; seen.clear(); cursor = undefined; scanned = 0;
    }
    list.setAttribute('aria-busy', 'true');
    for (let request = 0; request < SCANS_PER_LOAD; request++) {
      const page = await ctx.api.get('/v1/users', { limit: PAGE, ...query, ...cursor });
      if (mine !== generation) return;
      const items = (page.users ?? []) as User[];
      for (const u of items) if (!seen.has(u._id)) { seen.add(u._id); shown.push(u); }
      scanned += Number(page.meta?.scanned ?? 0);
      const last = items[items.length - 1];
      cursor = !page.meta?.hasMore ? undefined
        : page.meta.next ?? (last ? { updatedBefore: last.updatedAt, beforeId: last._id } : undefined);
      if (!cursor || items.length >= PAGE || !scans(query)) break;
    }
    render();
  };
  let typing: ReturnType<typeof setTimeout> | undefined;
  const reload = () => { clearTimeout(typing); void attempt(error, () => load(true)); };
  const form = h('form', { class: 'row', role: 'search', 'aria-label': 'Find users' },
    field('Search', search, 'Searches every user: a userId, deviceId or _id by its start, a description by any part. Enter an exact id to open that user.'),
    field('Show', filter), h('button', { type: 'submit' }, 'Search'));
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
  filter.addEventListener('change', reload);
  search.addEventListener('input', () => { clearTimeout(typing); typing = setTimeout(reload, TYPING_PAUSE_MS); });
  more.addEventListener('click', () => void attempt(error, () => load(false)));
  ctx.root.append(h('h1', {}, `Users · ${ctx.env}`), h('div', { class: 'card' }, form, error, list, more));
  await attempt(error, () => load(true));
}
