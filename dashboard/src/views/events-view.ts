// The live event feed: new events appear without reloading (polled every two seconds), filtered by
// type or by user on the server (a user's own events from their index, their types kept in the page).
import type { ViewContext } from '../context';
import { poll } from '../context';
import { attempt, field, h, when } from '../elements';
import { describeEvent, EventFeed } from '../events-feed';
import { count as counted } from '../words';

/** The feed keeps this many rows; older ones drop off the bottom. */
const KEEP = 300;

export async function eventsView(ctx: ViewContext, arg?: string): Promise<void> {
  const params = new URLSearchParams(arg ?? '');
  const types = h('input', { name: 'types', value: params.get('types') ?? '', placeholder: 'user.entered_geofence,user.exited_geofence' });
  const user = h('input', { name: 'user', value: params.get('user') ?? '', placeholder: 'userId or deviceId' });
  const list = h('ul', { class: 'feed', id: 'event-feed', 'aria-label': 'Events, newest first', 'aria-live': 'polite' });
  const error = h('p', { class: 'error', role: 'alert' });
  const count = h('p', { class: 'muted' });
  const feedOf = () => new EventFeed(ctx.api, types.value, user.value.trim() || undefined);
  let feed = feedOf();
  let shown = 0;
  let first = 0;
  let opened = false;

  const pull = async () => {
    const fresh = await feed.next(100);
    if (!opened) { opened = true; first = fresh.length; }
    for (const e of fresh) {
      shown++;
      list.prepend(h('li', { class: 'fresh', 'data-type': e.type },
        h('strong', {}, describeEvent(e)),
        h('div', { class: 'muted' }, `${when(e.createdAt)}${e.confidence ? ` · confidence ${e.confidence}` : ''} · `, h('code', {}, e.type)),
        h('details', {}, h('summary', {}, 'JSON'), h('pre', { class: 'json' }, JSON.stringify(e, null, 2)))));
    }
    while (list.children.length > KEEP) list.lastElementChild?.remove();
    const arrived = shown - first;
    count.textContent = `The latest ${counted(first, 'event')} when the page opened, ${counted(arrived, 'new event')} since · updates every 2 s`;
  };
  const filters = h('form', { class: 'row', role: 'search', 'aria-label': 'Filter events' }, field('Types (comma-separated)', types), field('User', user), h('button', { type: 'submit' }, 'Apply'));
  filters.addEventListener('submit', (e) => {
    e.preventDefault();
    feed = feedOf();
    list.replaceChildren();
    shown = 0;
    first = 0;
    opened = false;
    void attempt(error, pull);
  });
  ctx.root.append(h('h1', {}, `Events · ${ctx.env}`), h('div', { class: 'card' }, filters, error, count, list));
  await attempt(error, pull);
  poll(ctx, 2000, () => attempt(error, pull).then(() => undefined));
}
