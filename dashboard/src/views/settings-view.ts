// Project settings as a form, each setting explained (GET/PATCH /v1/project/settings), and the
// project's keys: rotation after a confirmation that says what it breaks, the new keys shown once with
// a copy button each.
import type { ViewContext } from '../context';
import { attempt, field, h, table, toast, when } from '../elements';

type Kind = 'flag' | 'number';
interface Setting { name: string; label: string; kind: Kind; help: string; unit?: string; min?: number; max?: number }

/** The settings Radar keeps "in the dashboard", grouped as a person looks for them. */
const GROUPS: Array<{ title: string; settings: Setting[] }> = [
  {
    title: 'Geofence events',
    settings: [
      { name: 'stopDetection', label: 'Stop detection', kind: 'flag', help: 'Entries only when the device reports it has stopped or is in the foreground (a geofence can override it).' },
      { name: 'bufferEntries', label: 'Buffer entries', kind: 'flag', help: 'Count a user as entered when within their location accuracy of the boundary, not only inside it.' },
      { name: 'bufferExits', label: 'Buffer exits', kind: 'flag', help: 'Count an exit only once the user is further out than their location accuracy.' },
      { name: 'dwellEvents', label: 'Dwell events', kind: 'flag', help: 'Send user.dwelled_in_geofence once per visit after the geofence\'s dwell threshold.' },
      { name: 'operatingHoursSuppression', label: 'Respect operating hours', kind: 'flag', help: 'No geofence events outside a geofence\'s operating hours (in its local time).' },
    ],
  },
  {
    title: 'Trips',
    settings: [
      { name: 'tripApproachingThreshold', label: 'Approaching threshold', kind: 'number', unit: 'minutes', min: 0, max: 1440, help: 'A trip is approaching when its ETA falls to this (a trip or destination geofence may set its own).' },
      { name: 'tripExpirationHours', label: 'Trip expiry', kind: 'number', unit: 'hours', min: 0.01, max: 8760, help: 'An open trip without an update for this long is expired.' },
    ],
  },
  {
    title: 'Location history',
    settings: [
      { name: 'locationHistoryDays', label: 'Keep location history', kind: 'number', unit: 'days', min: 0, max: 3650, help: 'Each location update is kept this long for the user page\'s track (at most one row a minute while a user stays put); 0 keeps none.' },
    ],
  },
  {
    title: 'Context and fraud',
    settings: [
      { name: 'places', label: 'Places', kind: 'flag', help: 'Match users to imported places (user.place, place events).' },
      { name: 'regions', label: 'Regions', kind: 'flag', help: 'Country, state, DMA and postal code on users and their region events.' },
      { name: 'fraud', label: 'Fraud checks', kind: 'flag', help: 'Flag mocked, jumped, compromised, inaccurate, proxied and shared locations on users.' },
      { name: 'fraudBlocking', label: 'Block on fraud', kind: 'flag', help: 'A location update that fails the fraud checks yields no events.' },
    ],
  },
];

function copyButton(key: string, kind: string): HTMLElement {
  const copy = h('button', { type: 'button', 'aria-label': `Copy the ${kind} key` }, 'Copy');
  copy.addEventListener('click', () => void navigator.clipboard.writeText(key).then(() => toast('Copied')));
  return copy;
}

export async function settingsView(ctx: ViewContext): Promise<void> {
  const error = h('p', { class: 'error', role: 'alert' });
  const controls = new Map<string, HTMLInputElement>();
  const groups = GROUPS.map((g) => h('fieldset', { class: 'card' }, h('legend', {}, g.title), g.settings.map((s) => {
    if (s.kind === 'flag') {
      const box = h('input', { type: 'checkbox', name: s.name, 'aria-describedby': `${s.name}-help` });
      controls.set(s.name, box);
      return h('div', { class: 'field setting' }, h('label', {}, box, ` ${s.label}`), h('small', { class: 'muted', id: `${s.name}-help` }, s.help));
    }
    const input = h('input', { type: 'number', name: s.name, step: 'any', min: s.min, max: s.max, required: true });
    controls.set(s.name, input);
    return field(`${s.label} (${s.unit})`, input, s.help);
  })));
  const save = h('button', { type: 'submit', class: 'primary' }, 'Save settings');
  const form = h('form', { 'aria-label': 'Project settings' }, groups, error, save);
  const keysOut = h('div', { 'aria-live': 'polite' });
  const rotate = h('button', { type: 'button', class: 'danger', id: 'rotate-keys' }, 'Rotate keys…');
  const dialog = h('dialog', { 'aria-labelledby': 'rotate-h' },
    h('h2', { id: 'rotate-h' }, `Rotate the ${ctx.env} keys?`),
    h('p', {}, `The ${ctx.env} publishable and secret keys are replaced (the ${ctx.env === 'live' ? 'test' : 'live'} keys are kept). Every app and server using them stops working until it gets the new ones. The new secret key is shown once.`),
    h('form', { method: 'dialog', class: 'row' },
      h('button', { value: 'cancel' }, 'Cancel'),
      h('button', { value: 'rotate', class: 'danger', id: 'rotate-confirm' }, 'Rotate keys')));

  const show = (settings: Record<string, boolean | number>) => {
    for (const [name, el] of controls) {
      if (el.type === 'checkbox') el.checked = settings[name] === true;
      else el.value = String(settings[name] ?? '');
    }
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void attempt(error, async () => {
      const patch: Record<string, boolean | number> = {};
      for (const [name, el] of controls) patch[name] = el.type === 'checkbox' ? el.checked : Number(el.value);
      const { settings } = await ctx.api.send('PATCH', '/v1/project/settings', patch);
      show(settings);
      toast('Settings saved');
    });
  });
  rotate.addEventListener('click', () => dialog.showModal());
  dialog.addEventListener('close', () => {
    if (dialog.returnValue !== 'rotate') return;
    void attempt(error, async () => {
      const { keys } = await ctx.api.send('POST', '/v1/project/keys/rotate');
      const mine = (keys as Array<{ key: string; live: boolean; kind: string }>).find((k) => k.kind === 'secret' && k.live === (ctx.env === 'live'));
      if (mine) ctx.replaceKey(mine.key);
      keysOut.replaceChildren(h('p', {}, 'New keys (copy them now: the server keeps only their hashes and cannot show them again):'),
        table(['Key', 'Environment', 'Kind', ''], keys.map((k: any) => [h('code', {}, k.key), k.live ? 'live' : 'test', k.kind, copyButton(k.key, k.kind)])));
      toast('Keys rotated');
      await showKeys();
    });
  });
  const current = h('div', { id: 'current-keys' });
  const showKeys = async () => {
    const { keys } = (await ctx.api.get('/v1/project/keys')) as { keys: Array<{ kind: string; key?: string; display: string; createdAt: string }> };
    current.replaceChildren(table(['Key', 'Kind', 'Issued', ''], keys.map((k) => [
      h('code', {}, k.key ?? k.display), k.kind, when(k.createdAt),
      k.key ? copyButton(k.key, k.kind) : h('small', { class: 'muted' }, 'stored hashed: shown only when issued'),
    ])));
  };
  ctx.root.append(h('h1', {}, 'Project settings'), form,
    h('section', { class: 'card', 'aria-labelledby': 'keys-h' }, h('h2', { id: 'keys-h' }, `Keys · ${ctx.env}`),
      h('p', { class: 'muted' }, `The ${ctx.env} publishable key goes into your apps' SDKs; the secret key, for your servers, is stored hashed, so only its beginning is shown here. Rotating issues new ones and shows the secret key once.`),
      current, rotate, keysOut), dialog);
  await attempt(error, async () => {
    const [{ settings }] = await Promise.all([ctx.api.get('/v1/project/settings'), showKeys()]);
    show(settings);
  });
}
