// Project settings (GET/PATCH /v1/project/settings) and the project's keys (rotation, after a
// confirmation that says what it breaks).
import type { ViewContext } from '../context';
import { attempt, field, h, table, toast } from '../elements';

export async function settingsView(ctx: ViewContext): Promise<void> {
  const error = h('p', { class: 'error', role: 'alert' });
  const editor = h('textarea', { name: 'settings', rows: 18, style: 'width:100%; font-family: ui-monospace, monospace' });
  const save = h('button', { type: 'submit', class: 'primary' }, 'Save settings');
  const form = h('form', { 'aria-label': 'Project settings' }, field('Settings (JSON; only changed fields need to be sent)', editor), save);
  const keysOut = h('div', { 'aria-live': 'polite' });
  const rotate = h('button', { type: 'button', class: 'danger', id: 'rotate-keys' }, 'Rotate keys…');
  const dialog = h('dialog', { 'aria-labelledby': 'rotate-h' },
    h('h2', { id: 'rotate-h' }, `Rotate the ${ctx.env} keys?`),
    h('p', {}, `The ${ctx.env} publishable and secret keys are replaced (the ${ctx.env === 'live' ? 'test' : 'live'} keys are kept). Every app and server using them stops working until it gets the new ones. The new secret key is shown once.`),
    h('form', { method: 'dialog', class: 'row' },
      h('button', { value: 'cancel' }, 'Cancel'),
      h('button', { value: 'rotate', class: 'danger', id: 'rotate-confirm' }, 'Rotate keys')));

  const load = async () => {
    const { settings } = await ctx.api.get('/v1/project/settings');
    editor.value = JSON.stringify(settings, null, 2);
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void attempt(error, async () => {
      let patch: unknown;
      try { patch = JSON.parse(editor.value); } catch { throw new Error('The settings are not valid JSON.'); }
      const { settings } = await ctx.api.send('PATCH', '/v1/project/settings', patch);
      editor.value = JSON.stringify(settings, null, 2);
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
      keysOut.replaceChildren(h('p', {}, 'New keys (copy the secret ones now; they are stored hashed):'),
        table(['Key', 'Environment', 'Kind'], keys.map((k: any) => [h('code', {}, k.key), k.live ? 'live' : 'test', k.kind])));
      toast('Keys rotated');
    });
  });
  ctx.root.append(h('h1', {}, 'Project settings'), h('div', { class: 'card' }, form, error),
    h('section', { class: 'card', 'aria-labelledby': 'keys-h' }, h('h2', { id: 'keys-h' }, 'Keys'), rotate, keysOut), dialog);
  await attempt(error, load);
}
