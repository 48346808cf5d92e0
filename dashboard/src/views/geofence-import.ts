// The CSV upload (POST /v1/geofences/import) with its per-row report, and the nightly sync
// (GET/PUT /v1/geofence-sync, POST …/run, GET …/runs).
import { ApiError } from '../api';
import type { ViewContext } from '../context';
import { attempt, field, h, table, toast, when } from '../elements';

interface ImportReport {
  ok: boolean; dataRows: number; imported: number; created: number; updated: number;
  errors: Array<{ row: number; column?: string; message: string }>; errorCount: number;
}

function reportView(report: ImportReport): HTMLElement {
  const summary = report.ok
    ? h('p', { class: 'pill ok' }, `Imported ${report.imported} of ${report.dataRows} rows: ${report.created} created, ${report.updated} updated`)
    : h('p', { class: 'pill bad' }, `Nothing imported: ${report.errorCount} problem${report.errorCount === 1 ? '' : 's'} in ${report.dataRows} rows`);
  return h('div', { id: 'import-report', role: 'status' }, summary,
    report.errors.length ? table(['Row', 'Column', 'Problem'], report.errors.map((e) => [e.row, e.column ?? '—', e.message]), 'Problems by row') : null);
}

export function importCard(ctx: ViewContext, afterImport: () => Promise<void>): HTMLElement {
  const file = h('input', { type: 'file', accept: '.csv,text/csv', name: 'file' });
  const out = h('div', { 'aria-live': 'polite' });
  const error = h('p', { class: 'error', role: 'alert' });
  const form = h('form', { 'aria-label': 'Import geofences from CSV' }, field('CSV file', file, 'Columns as documented in docs/geofence-import.md; all rows or none are imported.'), h('button', { type: 'submit', class: 'primary' }, 'Upload'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const chosen = file.files?.[0];
    if (!chosen) { error.textContent = 'Choose a CSV file first.'; return; }
    void attempt(error, async () => {
      out.replaceChildren(h('p', { class: 'muted' }, `Uploading ${chosen.name}…`));
      try {
        const { import: report } = await ctx.api.upload('/v1/geofences/import', chosen);
        out.replaceChildren(reportView(report));
        await afterImport();
      } catch (err) {
        // A file with bad rows answers 400 with the per-row report in the body.
        if (err instanceof ApiError && err.body?.import) out.replaceChildren(reportView(err.body.import));
        else { out.replaceChildren(); throw err; }
      }
    });
  });
  return h('section', { class: 'card', 'aria-labelledby': 'import-h' }, h('h2', { id: 'import-h' }, 'Import from CSV'), form, error, out);
}

export function syncCard(ctx: ViewContext): HTMLElement {
  // Settings are per project; each environment has its own source (testUrl / liveUrl).
  const urlField = ctx.env === 'live' ? 'liveUrl' : 'testUrl';
  const url = h('input', { name: urlField, type: 'url', placeholder: 'https://example.com/geofences.csv' });
  const enabled = h('input', { type: 'checkbox', name: 'enabled' });
  const email = h('input', { name: 'email', type: 'email', placeholder: 'reports@example.com' });
  const state = h('div', { 'aria-live': 'polite' });
  const error = h('p', { class: 'error', role: 'alert' });
  const runs = h('div');
  const runHint = h('small', { class: 'muted', id: 'sync-run-hint' });

  const load = async () => {
    const run = form.querySelector('#sync-run') as HTMLButtonElement;
    try {
      const { sync } = await ctx.api.get('/v1/geofence-sync');
      const source = sync[urlField];
      run.disabled = !source;
      runHint.textContent = source ? '' : `Enter the ${ctx.env} source URL and save before running the sync.`;
      url.value = sync[urlField] ?? '';
      enabled.checked = sync.enabled === true;
      email.value = Array.isArray(sync.email) ? sync.email.join(', ') : sync.email ?? '';
      state.replaceChildren(h('p', { class: 'muted' }, `${sync.schedule ?? ''}${sync.nextRunAt ? ` · next run ${when(sync.nextRunAt)}` : ''}`));
    } catch (err: any) {
      if (err?.status !== 404) throw err;
      run.disabled = true;
      runHint.textContent = 'Enter a source URL and save before running the sync.';
      state.replaceChildren(h('p', { class: 'muted' }, 'No nightly sync is set up.'));
    }
    const page = await ctx.api.get('/v1/geofence-sync/runs', { limit: 20 });
    const items = (page.runs ?? []) as Array<{ createdAt: string; status: 'succeeded' | 'partial' | 'failed' }>;
    const pill = { succeeded: 'ok', partial: 'warn', failed: 'bad' } as const;
    runs.replaceChildren(items.length
      ? table(['When', 'Result'], items.map((r) => [when(r.createdAt), h('span', { class: `pill ${pill[r.status] ?? ''}` }, r.status)]), 'Last runs')
      : h('p', { class: 'muted' }, 'No runs yet.'));
  };

  const form = h('form', { 'aria-label': 'Nightly sync settings' },
    field(`Source URL (${ctx.env})`, url), field('Report e-mail', email), h('div', { class: 'field' }, h('label', {}, enabled, ' Run nightly')),
    h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary' }, 'Save'), h('button', { type: 'button', id: 'sync-run', 'aria-describedby': 'sync-run-hint' }, 'Run now'), runHint));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void attempt(error, async () => {
      await ctx.api.send('PATCH', '/v1/geofence-sync', { protocol: 'http', [urlField]: url.value || undefined, enabled: enabled.checked, ...(email.value ? { email: email.value } : {}) });
      toast('Sync settings saved');
      await load();
    });
  });
  form.querySelector('#sync-run')!.addEventListener('click', () => void attempt(error, async () => {
    await ctx.api.send('POST', '/v1/geofence-sync/run');
    toast('Sync started: its result appears under Last runs');
    await load();
  }));
  void attempt(error, load);
  return h('section', { class: 'card', 'aria-labelledby': 'sync-h' }, h('h2', { id: 'sync-h' }, 'Nightly sync'), state, form, error, runs);
}
