// Webhooks: the endpoints with their state; add one; per endpoint, edit (URL, description, event
// types, single or batch), pause and resume, delete, the signing token (shown on request, copyable,
// rotatable), a test delivery (the newest stored event sent again to this endpoint only), the next
// retry, dead letters (redeliver one or all) and recent deliveries.
import type { ViewContext } from '../context';
import { attempt, field, h, table, toast, when } from '../elements';
import { count } from '../words';

interface Webhook {
  _id: string; url: string; description?: string; types: string[] | null; mode: string; enabled: boolean; token: string;
  status?: string; queueFullSince?: string; disabledReason?: string; disabledAt?: string; createdAt: string;
}

function statePill(w: Webhook): HTMLElement {
  if (w.enabled === false) return h('span', { class: 'pill warn' }, w.disabledReason === 'failing' ? 'disabled: failing for 6 h' : 'paused');
  if (w.status === 'queue-full') return h('span', { class: 'pill bad' }, `queue full since ${when(w.queueFullSince)}`);
  return h('span', { class: 'pill ok' }, 'active');
}

function webhookFields(w?: Webhook) {
  const url = h('input', { name: 'url', type: 'url', required: true, value: w?.url ?? '', placeholder: 'https://example.com/waymark' });
  const description = h('input', { name: 'description', value: w?.description ?? '' });
  const types = h('input', { name: 'types', value: w?.types?.join(',') ?? '', placeholder: 'all events' });
  const mode = h('select', { name: 'mode' }, ['single', 'batch'].map((m) => h('option', { value: m, selected: (w?.mode ?? 'single') === m }, m === 'single' ? 'one event per request' : 'batches of events')));
  const body = () => ({ url: url.value, description: description.value || undefined, types: types.value.trim() ? types.value.split(',').map((t) => t.trim()).filter(Boolean) : null, mode: mode.value });
  return {
    body,
    fields: [field('Endpoint URL', url), field('Description', description), field('Event types (comma-separated)', types, 'Empty: every event type.'), field('Delivery', mode)],
  };
}

export async function webhooksView(ctx: ViewContext, id?: string): Promise<void> {
  const error = h('p', { class: 'error', role: 'alert' });
  if (id) return webhookDetail(ctx, id, error);
  const create = webhookFields();
  const form = h('form', { 'aria-label': 'Add a webhook' }, h('h2', {}, 'Add a webhook'), h('div', { class: 'row' }, ...create.fields), h('button', { type: 'submit', class: 'primary' }, 'Add webhook'));
  const list = h('div', { id: 'webhook-list' });
  const load = async () => {
    const { webhooks } = (await ctx.api.get('/v1/webhooks')) as { webhooks: Webhook[] };
    list.replaceChildren(webhooks.length
      ? table(['Endpoint', 'Events', 'Delivery', 'State', 'Created'], webhooks.map((w) => [
        h('a', { href: `#/webhooks/${w._id}` }, w.description || w.url), w.types?.join(', ') ?? 'all', w.mode ?? 'single', statePill(w), when(w.createdAt)]),
      count(webhooks.length, 'endpoint'))
      : h('p', { class: 'muted' }, 'No webhooks yet.'));
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void attempt(error, async () => { await ctx.api.send('POST', '/v1/webhooks', create.body()); toast('Webhook added'); form.reset(); await load(); });
  });
  ctx.root.append(h('h1', {}, `Webhooks · ${ctx.env}`), h('div', { class: 'card' }, list, error), h('div', { class: 'card' }, form));
  await attempt(error, load);
}

async function webhookDetail(ctx: ViewContext, id: string, error: HTMLElement): Promise<void> {
  const path = `/v1/webhooks/${encodeURIComponent(id)}`;
  const { webhook } = (await ctx.api.get(path)) as { webhook: Webhook };
  const edit = webhookFields(webhook);
  const state = h('p', { id: 'webhook-state' });
  const retry = h('p', { class: 'muted', id: 'next-retry' });
  const queue = h('p', { id: 'webhook-queue' });
  const deliveries = h('div');
  const dead = h('div', { id: 'dead-letters' });
  const redeliverAll = h('button', { type: 'button', id: 'redeliver-dead' }, 'Redeliver all dead letters');
  const pause = h('button', { type: 'button', id: 'webhook-pause' });
  const remove = h('button', { type: 'button', class: 'danger' }, 'Delete webhook');
  const test = h('button', { type: 'button', id: 'webhook-test' }, 'Send a test event');
  const token = h('code', { id: 'webhook-token' }, '••••••••');
  const showToken = h('button', { type: 'button' }, 'Show');
  const copyToken = h('button', { type: 'button' }, 'Copy');
  const rotateToken = h('button', { type: 'button', class: 'danger' }, 'New token…');
  let current = webhook;

  const load = async () => {
    const [{ webhook: w }, log, letters, { queue: q }] = await Promise.all([
      ctx.api.get(path), ctx.api.get(`${path}/deliveries`, { limit: 50 }), ctx.api.get(`${path}/dead-letters`, { limit: 100 }), ctx.api.get(`${path}/queue`),
    ]);
    queue.textContent = queueText(q);
    current = w;
    state.replaceChildren(statePill(w), w.disabledAt ? ` since ${when(w.disabledAt)}` : '');
    pause.textContent = w.enabled === false ? 'Resume' : 'Pause';
    const rows = (log.deliveries ?? []) as any[];
    const pending = rows.find((d) => d.outcome === 'retry' && d.nextAttemptAt);
    retry.textContent = pending ? `Next retry ${when(pending.nextAttemptAt)} (attempt ${pending.attempt + 1})` : 'No retry pending.';
    deliveries.replaceChildren(rows.length
      ? table(['When', 'Outcome', 'Status', 'Attempt', 'Events', 'Latency'], rows.map((d) => [when(d.createdAt),
        h('span', { class: `pill ${d.outcome === 'delivered' ? 'ok' : d.outcome === 'retry' ? 'warn' : 'bad'}` }, d.outcome), d.status ?? d.error ?? '—', d.attempt ?? '—', (d.eventIds ?? []).length || '—', d.latencyMs !== undefined ? `${Math.round(d.latencyMs)} ms` : '—']))
      : h('p', { class: 'muted' }, 'Nothing delivered yet.'));
    const letterRows = (letters.deadLetters ?? []) as any[];
    redeliverAll.hidden = letterRows.length === 0;
    dead.replaceChildren(letterRows.length
      ? table(['Given up', 'Last error', 'Events', ''], letterRows.map((l) => {
        const one = h('button', { type: 'button', 'aria-label': `Redeliver dead letter ${l._id}` }, 'Redeliver');
        one.addEventListener('click', () => void attempt(error, async () => { await ctx.api.send('POST', `${path}/dead-letters/redeliver`, { ids: [l._id] }); toast('Queued again'); await load(); }));
        return [when(l.deadAt ?? l.createdAt), l.lastError ?? l.deadReason ?? '—', (l.eventIds ?? []).length || '—', one];
      }), count(letterRows.length, 'dead letter'))
      : h('p', { class: 'muted', id: 'no-dead-letters' }, 'No dead letters.'));
  };

  const form = h('form', { 'aria-label': 'Edit webhook' }, h('div', { class: 'row' }, ...edit.fields), h('button', { type: 'submit', class: 'primary' }, 'Save webhook'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void attempt(error, async () => { await ctx.api.send('PATCH', path, edit.body()); toast('Webhook saved'); await load(); });
  });
  pause.addEventListener('click', () => void attempt(error, async () => {
    await ctx.api.send('PATCH', path, { enabled: current.enabled === false });
    toast(current.enabled === false ? 'Webhook resumed' : 'Webhook paused: events are not queued for it');
    await load();
  }));
  remove.addEventListener('click', () => void attempt(error, async () => {
    if (!confirm(`Delete the webhook ${current.url}? Its queue and dead letters go with it.`)) return;
    await ctx.api.send('DELETE', path);
    toast('Webhook deleted');
    ctx.navigate('#/webhooks');
  }));
  test.addEventListener('click', () => void attempt(error, async () => {
    const { events } = await ctx.api.get('/v1/events', { limit: 1 });
    if (!events?.length) throw new Error('There is no event yet to send: track a user into a geofence first.');
    await ctx.api.send('POST', `${path}/redeliver`, { eventIds: [events[0]._id] });
    toast(`Sent ${events[0].type} again to this endpoint`);
    setTimeout(() => void attempt(error, load), 1500);
  }));
  showToken.addEventListener('click', () => {
    const shown = token.textContent !== current.token;
    token.textContent = shown ? current.token : '••••••••';
    showToken.textContent = shown ? 'Hide' : 'Show';
  });
  copyToken.addEventListener('click', () => void attempt(error, async () => { await navigator.clipboard.writeText(current.token); toast('Signing token copied'); }));
  rotateToken.addEventListener('click', () => void attempt(error, async () => {
    if (!confirm('Issue a new signing token? The receiver must check signatures with the new one from now on.')) return;
    const { webhook: w } = await ctx.api.send('POST', `${path}/token`);
    current = w;
    token.textContent = w.token;
    showToken.textContent = 'Hide';
    toast('New signing token issued');
  }));
  redeliverAll.addEventListener('click', () => void attempt(error, async () => {
    if (!confirm('Queue every dead letter of this endpoint again?')) return;
    await ctx.api.send('POST', `${path}/dead-letters/redeliver`, {});
    toast('Dead letters queued again');
    await load();
  }));

  ctx.root.append(h('p', {}, h('a', { href: '#/webhooks' }, '← All webhooks')), error,
    h('h1', {}, webhook.description || webhook.url),
    h('section', { class: 'card', 'aria-labelledby': 'state-h' }, h('h2', { id: 'state-h' }, 'State'), state, queue, retry,
      h('div', { class: 'toolbar' }, pause, test, remove),
      h('h2', {}, 'Signing token'), h('p', { class: 'row' }, token, showToken, copyToken, rotateToken),
      h('p', { class: 'muted' }, 'Each request carries a signature made with this token; see docs/webhooks.md.')),
    h('section', { class: 'card', 'aria-labelledby': 'edit-h' }, h('h2', { id: 'edit-h' }, 'Settings'), form),
    h('section', { class: 'card', 'aria-labelledby': 'dl-h' }, h('h2', { id: 'dl-h' }, 'Dead letters'), redeliverAll, dead),
    h('section', { class: 'card', 'aria-labelledby': 'del-h' }, h('h2', { id: 'del-h' }, 'Recent deliveries'), deliveries));
  await attempt(error, load);
}

/** "Queue: 1,204 events waiting (oldest 3 min ago) · 2 dead letters"; a count at the cap reads "at least". */
function queueText(q: { pending: number; dead: number; countedTo: number; oldestPendingAt: string | null }): string {
  const atLeast = (n: number) => (n >= q.countedTo ? 'at least ' : '');
  const waiting = q.pending === 0 ? 'nothing waiting' : `${atLeast(q.pending)}${count(q.pending, 'delivery', 'deliveries')} waiting${q.oldestPendingAt ? ` (oldest queued ${when(q.oldestPendingAt)})` : ''}`;
  return `Queue: ${waiting} · ${atLeast(q.dead)}${count(q.dead, 'dead letter')}`;
}
