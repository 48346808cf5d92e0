// Builds the dashboard into dist/dashboard: src/ minified into ES modules (Leaflet and supercluster
// included): app.js, the shell, and one chunk per view loaded when the view is first shown (plus the
// chunks they share, Leaflet's among them), so the page evaluates only what the view it opens needs,
// and not all of it in one task; the page, the styles, Leaflet's own CSS and the world/US outlines for
// the offline base map.
// Run by `npm install` (the prepare script) and `npm run build:dashboard`; the gateway serves the result.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const target = path.join(root, 'dist', 'dashboard');
// Built aside, then each file renamed into dist/dashboard: a gateway serving it, or a second build
// running at the same time (test files build it, and `jest -w 2` runs two), never sees it half written.
const out = path.join(root, 'dist', `.dashboard-building-${process.pid}`);
const started = Date.now();

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

const result = await build({
  entryPoints: [path.join(here, 'src', 'main.ts')],
  bundle: true,
  // DASHBOARD_MINIFY=0: readable function names in profiles (bench/dashboard.ts PROFILE=1).
  minify: process.env.DASHBOARD_MINIFY !== '0',
  sourcemap: true,
  format: 'esm',
  splitting: true,
  target: ['chrome100', 'firefox100', 'safari15'],
  outdir: out,
  entryNames: 'app',
  // Flat: the gateway serves dist/dashboard's files by name, without folders.
  chunkNames: 'chunk-[hash]',
  metafile: true,
  logLevel: 'warning',
});

const copy = (from, to) => fs.copyFileSync(from, path.join(out, to));
// The map is the view a first load opens: its chunks are asked for with the page (modulepreload),
// not after app.js has run, so splitting adds no round trip before the first draw.
const outputs = result.metafile.outputs;
const rel = (f) => path.relative(process.cwd(), f);
const mapChunk = Object.keys(outputs).find((o) => outputs[o].entryPoint === rel(path.join(here, 'src', 'views', 'map-view.ts')));
if (!mapChunk) throw new Error('no chunk for views/map-view.ts in the build');
const preload = new Set();
const follow = (o) => {
  if (preload.has(o)) return;
  preload.add(o);
  for (const i of outputs[o].imports) if (i.kind === 'import-statement') follow(i.path);
};
follow(mapChunk);
const links = [...preload].map((o) => `  <link rel="modulepreload" href="${path.basename(o)}">`).join('\n');
const page = fs.readFileSync(path.join(here, 'index.html'), 'utf8');
if (!page.includes('<!-- modulepreload -->')) throw new Error('index.html has no <!-- modulepreload --> line');
fs.writeFileSync(path.join(out, 'index.html'), page.replace('  <!-- modulepreload -->', links));
copy(path.join(here, 'style.css'), 'style.css');
copy(path.join(root, 'node_modules', 'leaflet', 'dist', 'leaflet.css'), 'leaflet.css');
// Base-map outlines: 1:50m countries and 1:10m US states are detailed enough for a city-level view and
// small enough (≈ 0.8 MB together, gzipped far less) for a first load.
copy(path.join(root, 'node_modules', 'world-atlas', 'countries-50m.json'), 'countries.json');
copy(path.join(root, 'node_modules', 'us-atlas', 'states-10m.json'), 'states.json');

// Each file a page asks for, compressed once here: the gateway serves `<file>.gz` as it is
// (server/http/dashboard-files.ts), where it used to compress every file at level 9 on the first request
// for the dashboard (360 CPU-ms on its main thread, most of it the outlines, before the page could load).
// Level 6: a quarter of level 9's time for 1 % more bytes. Source maps are left to the gateway, which
// compresses one off its main thread if a browser's developer tools ask for it.
for (const name of fs.readdirSync(out)) {
  if (name.endsWith('.map')) continue;
  fs.writeFileSync(path.join(out, `${name}.gz`), gzipSync(fs.readFileSync(path.join(out, name)), { level: 6 }));
}

fs.mkdirSync(target, { recursive: true });
const built = new Set(fs.readdirSync(out));
for (const name of built) fs.renameSync(path.join(out, name), path.join(target, name));
// What an earlier build of other sources left (chunk names carry their content's hash).
for (const name of fs.readdirSync(target)) if (!built.has(name)) fs.rmSync(path.join(target, name), { recursive: true, force: true });
fs.rmSync(out, { recursive: true, force: true });

const js = Object.keys(outputs).filter((o) => o.endsWith('.js'));
const kib = (files) => (files.reduce((sum, o) => sum + outputs[o].bytes, 0) / 1024).toFixed(0);
console.log(`dashboard built in ${Date.now() - started} ms: ${js.length} scripts, ${kib(js)} KiB (${kib([...preload])} KiB for the map) → ${path.relative(root, target)}`);
