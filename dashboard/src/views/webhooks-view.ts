// Webhooks: the endpoints, each with its recent deliveries and its dead letters, and redelivery.
import type { ViewContext } from '../context';
import { attempt, field, h, table, toast, when } from '../elements';

export async function webhooksView(ctx: ViewContext, id?: string): Promise<void> {
  const error = h('p', { class: 'error', role: 'alert' });
  if (id) return webhookDetail(ctx, id, error);
  const url = h('input', { name: 'url', type: 'url', required: true, placeholder: 'https://example.com/waymark' });
  const form = h('form', { class: 'row', 'aria-label': 'Add a webhook' }, field('Endpoint URL', url), h('button', { type: 'submit', class: 'primary' }, 'Add webhook'));
  const list = h('div');
  const load = async () => {
    const { webhooks } = await ctx.api.get('/v1/webhooks');
    list.replaceChildren(webhooks.length
      ? table(['Endpoint', 'Mode', 'State', 'Created'], webhooks.map((w: any) => [
        h('a', { href: `#/webhooks/${w._id}` }, w.url), w.mode ?? 'single',
        w.enabled === false ? h('span', { class: 'pill warn' }, 'disabled') : h('span', { class: 'pill ok' }, 'enabled'), when(w.createdAt)]))
      : h('p', { class: 'muted' }, 'No webhooks yet.'));
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void attempt(error, async () => { await ctx.api.send('POST', '/v1/webhooks', { url: url.value }); toast('Webhook added'); url.value = ''; await load(); });
  });
  ctx.root.append(h('h1', {}, `Webhooks · ${ctx.env}`), h('div', { class: 'card' }, form, error, list));
  await attempt(error, load);
}

async function webhookDetail(ctx: ViewContext, id: string, error: HTMLElement): Promise<void> {
  const deliveries = h('div');
  const dead = h('div', { id: 'dead-letters' });
  const redeliverAll = h('button', { type: 'button', id: 'redeliver-dead' }, 'Redeliver all dead letters');
  ctx.root.append(h('p', {}, h('a', { href: '#/webhooks' }, '← All webhooks')), error);
  const load = async () => {
    const [{ webhook }, log, letters] = await Promise.all([
      ctx.api.get(`/v1/webhooks/${encodeURIComponent(id)}`),
      ctx.api.get(`/v1/webhooks/${encodeURIComponent(id)}/deliveries`, { limit: 50 }),
      ctx.api.get(`/v1/webhooks/${encodeURIComponent(id)}/dead-letters`, { limit: 100 }),
    ]);
    const heading = ctx.root.querySelector('h1');
    if (heading) heading.textContent = webhook.url;
    const rows = (log.deliveries ?? []) as any[];
    deliveries.replaceChildren(rows.length
      ? table(['When', 'Outcome', 'Status', 'Attempt', 'Events'], rows.map((d) => [when(d.createdAt),
        h('span', { class: `pill ${d.outcome === 'delivered' ? 'ok' : d.outcome === 'retry' ? 'warn' : 'bad'}` }, d.outcome), d.status ?? d.error ?? '—', d.attempt ?? '—', (d.eventIds ?? []).length || '—']))
      : h('p', { class: 'muted' }, 'Nothing delivered yet.'));
    const letterRows = (letters.deadLetters ?? []) as any[];
    redeliverAll.hidden = letterRows.length === 0;
    dead.replaceChildren(letterRows.length
      ? table(['Given up', 'Last error', 'Events', ''], letterRows.map((l) => {
        const one = h('button', { type: 'button', 'aria-label': `Redeliver dead letter ${l._id}` }, 'Redeliver');
        one.addEventListener('click', () => void attempt(error, async () => { await ctx.api.send('POST', `/v1/webhooks/${encodeURIComponent(id)}/dead-letters/redeliver`, { ids: [l._id] }); toast('Queued again'); await load(); }));
        return [when(l.deadAt ?? l.createdAt), l.lastError ?? l.deadReason ?? '—', (l.eventIds ?? []).length || '—', one];
      }), `${letterRows.length} dead letters`)
      : h('p', { class: 'muted', id: 'no-dead-letters' }, 'No dead letters.'));
  };
  redeliverAll.addEventListener('click', () => void attempt(error, async () => {
    if (!confirm('Queue every dead letter of this endpoint again?')) return;
    await ctx.api.send('POST', `/v1/webhooks/${encodeURIComponent(id)}/dead-letters/redeliver`, {});
    toast('Dead letters queued again');
    await load();
  }));
  ctx.root.append(h('h1', {}, 'Webhook'),
    h('section', { class: 'card', 'aria-labelledby': 'dl-h' }, h('h2', { id: 'dl-h' }, 'Dead letters'), redeliverAll, dead),
    h('section', { class: 'card', 'aria-labelledby': 'del-h' }, h('h2', { id: 'del-h' }, 'Recent deliveries'), deliveries));
  await attempt(error, load);
}
