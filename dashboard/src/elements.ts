// A tiny element builder: the dashboard is a handful of forms, tables and lists, not worth a framework.
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | EventListener | undefined | null>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Array<Child | Child[]>): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, '').toLowerCase(), value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** A labelled input: every control has a visible label tied to it, for screen readers and clicks. */
let fieldCounter = 0;
export function field(label: string, control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, hint?: string): HTMLElement {
  if (!control.id) control.id = `f${++fieldCounter}`;
  const hintEl = hint ? h('small', { class: 'muted', id: `${control.id}-hint` }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control, hintEl);
}

export function when(iso: string | undefined | null): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

export function toast(message: string): void {
  const el = document.getElementById('toast');
  if (!el) return;
  el.textContent = message;
  el.classList.add('show');
  setTimeout(() => el.classList.remove('show'), 2500);
}

/** Runs an action, showing its error (the API's message) in `target` or as a toast instead of throwing. */
export async function attempt(target: HTMLElement | null, action: () => Promise<void>): Promise<boolean> {
  try {
    if (target) target.textContent = '';
    await action();
    return true;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (target) target.textContent = message;
    else toast(message);
    return false;
  }
}

export function table(headers: string[], rows: Array<Array<Child | Child[]>>, caption?: string): HTMLElement {
  return h('div', { class: 'table-wrap' },
    h('table', {},
      caption ? h('caption', { class: 'muted' }, caption) : null,
      h('thead', {}, h('tr', {}, headers.map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, rows.map((r) => h('tr', {}, r.map((c, i) => h('td', { 'data-label': headers[i] || undefined }, c)))))));
}
