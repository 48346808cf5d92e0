// The dashboard's shell: sign-in, the environment switch, and hash routing to the views. Each view is
// its own module chunk (dashboard/build.mjs), evaluated the first time it is shown: a first load
// evaluates the shell and the map's code (Leaflet's), not every view's, and not in the task that
// then builds the map.
import { createApi } from './api';
import type { View, ViewContext } from './context';
import { attempt, field, h } from './elements';
import { nextTask } from './next-task';
import { clearKeys, environmentOf, loadKeys, saveKeys, type Environment, type Keys } from './session';

/**
 * Leaflet is most of a map view's code, and evaluating it (its module's top level) is a task of its own:
 * the view's modules are evaluated in the next one, so neither holds the main thread for long.
 */
function leafletFirst<T>(load: () => Promise<T>): () => Promise<T> {
  return async () => {
    await import('leaflet');
    await nextTask();
    return load();
  };
}

const VIEWS: Record<string, () => Promise<View>> = {
  map: leafletFirst(() => import('./views/map-view').then((m) => m.mapView)),
  users: leafletFirst(() => import('./views/users-view').then((m) => m.usersView)),
  geofences: leafletFirst(() => import('./views/geofences-view').then((m) => m.geofencesView)),
  events: () => import('./views/events-view').then((m) => m.eventsView),
  trips: leafletFirst(() => import('./views/trips-view').then((m) => m.tripsView)),
  places: leafletFirst(() => import('./views/places-view').then((m) => m.placesView)),
  beacons: leafletFirst(() => import('./views/places-view').then((m) => m.beaconsView)),
  analytics: () => import('./views/analytics-view').then((m) => m.analyticsView),
  webhooks: () => import('./views/webhooks-view').then((m) => m.webhooksView),
  settings: () => import('./views/settings-view').then((m) => m.settingsView),
};

const main = document.getElementById('main')!;
const nav = document.getElementById('nav')!;
const session = document.getElementById('session')!;
const envSwitch = document.getElementById('env-switch') as HTMLSelectElement;
let keys: Keys | undefined = loadKeys();
let leave: Array<() => void> = [];

const api = createApi(() => (keys ? keys[keys.current] ?? '' : ''));

function signIn(): void {
  nav.hidden = true;
  session.hidden = true;
  const key = h('input', { name: 'key', type: 'password', autocomplete: 'off', required: true, placeholder: 'prj_test_sk_…' });
  const other = h('input', { name: 'otherKey', type: 'password', autocomplete: 'off', placeholder: 'optional: the other environment’s secret key' });
  const error = h('p', { class: 'error', role: 'alert' });
  const form = h('form', { class: 'card signin', 'aria-label': 'Sign in' },
    h('h1', {}, 'Sign in'),
    h('p', { class: 'muted' }, 'Use a project secret key. It stays in this browser tab only and is sent to this server alone.'),
    field('Secret key', key), field('Other environment’s secret key', other), error,
    h('button', { type: 'submit', class: 'primary' }, 'Sign in'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void attempt(error, async () => {
      const first = environmentOf(key.value);
      if (!first) throw new Error('That is not a secret key: it starts with prj_test_sk_ or prj_live_sk_.');
      const candidate: Keys = { current: first, [first]: key.value.trim() };
      const second = other.value ? environmentOf(other.value) : undefined;
      if (other.value && (!second || second === first)) throw new Error(`The other key must be the ${first === 'test' ? 'live' : 'test'} secret key.`);
      if (second) candidate[second] = other.value.trim();
      keys = candidate;
      try {
        await api.get('/v1/project/settings');
      } catch (err) {
        keys = undefined;
        throw err;
      }
      saveKeys(keys);
      route();
    });
  });
  main.replaceChildren(form);
  key.focus();
}

/**
 * Asks for the other environment's secret key in a dialog with a password field (never window.prompt,
 * which shows the key in clear text and cannot be styled or labelled); resolves to the key, or
 * undefined when cancelled.
 */
function askForKey(env: Environment): Promise<string | undefined> {
  const input = h('input', { type: 'password', name: 'envKey', autocomplete: 'off', required: true, placeholder: `prj_${env}_sk_…` });
  const error = h('p', { class: 'error', role: 'alert' });
  const cancel = h('button', { type: 'button' }, 'Cancel');
  const form = h('form', {}, field(`Secret key for ${env}`, input), error, h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary' }, `Switch to ${env}`), cancel));
  const dialog = h('dialog', { id: 'env-key-dialog', 'aria-labelledby': 'env-key-h' },
    h('h2', { id: 'env-key-h' }, `Switch to ${env}`),
    h('p', { class: 'muted' }, `Type the ${env} secret key once; it is kept in this tab only.`), form);
  document.body.append(dialog);
  return new Promise((resolve) => {
    const done = (value: string | undefined) => { dialog.close(); dialog.remove(); resolve(value); };
    cancel.addEventListener('click', () => done(undefined));
    dialog.addEventListener('cancel', () => done(undefined));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      if (environmentOf(input.value) !== env) { error.textContent = `That is not a ${env} secret key (prj_${env}_sk_…).`; return; }
      done(input.value.trim());
    });
    dialog.showModal();
    input.focus();
  });
}

async function switchEnvironment(env: Environment): Promise<void> {
  if (!keys) return;
  if (!keys[env]) {
    const typed = await askForKey(env);
    if (!typed || !keys) { envSwitch.value = keys?.current ?? 'test'; return; }
    keys[env] = typed;
  }
  keys.current = env;
  saveKeys(keys);
  route();
}

/**
 * Shows the view the hash names. `moveFocus`: after a navigation, focus goes to the new content (a
 * screen reader announces it); on the page's first load it stays where the browser put it, since focusing
 * forces a style and layout pass in the task that also builds the map (the longest task before its first draw).
 */
let routed = 0;
function route(moveFocus = true): void {
  const mine = ++routed;
  for (const fn of leave.splice(0)) fn();
  if (!keys) return signIn();
  nav.hidden = false;
  session.hidden = false;
  envSwitch.value = keys.current;
  const [path, query] = location.hash.replace(/^#\/?/, '').split('?');
  const [name, arg] = path.split('/');
  const load = VIEWS[name] ?? VIEWS.map;
  for (const a of nav.querySelectorAll('a')) {
    if (a.getAttribute('href') === `#/${name || 'map'}`) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  main.replaceChildren();
  const ctx: ViewContext = {
    api, env: keys.current, root: main,
    onLeave: (fn) => leave.push(fn),
    navigate: (hash) => { location.hash = hash; },
    replaceKey: (key) => { if (keys) { keys[keys.current] = key; saveKeys(keys); } },
  };
  const show = async () => {
    const view = await load();
    // The view's module was evaluated in the task that just ended (its chunk's arrival, or the click
    // that was answered at once when it had been shown before): the view starts in a new one.
    await nextTask();
    if (mine !== routed) return; // navigated elsewhere meanwhile
    await view(ctx, arg ?? query);
  };
  void show().catch((err) => main.append(h('p', { class: 'error', role: 'alert' }, String(err?.message ?? err))));
  if (moveFocus) main.focus({ preventScroll: true });
}

envSwitch.addEventListener('change', () => void switchEnvironment(envSwitch.value as Environment));
document.getElementById('sign-out')!.addEventListener('click', () => { clearKeys(); keys = undefined; location.hash = ''; route(); });
window.addEventListener('hashchange', () => route());
route(false);
