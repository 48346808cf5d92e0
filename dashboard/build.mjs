// Builds the dashboard into dist/dashboard: one minified bundle of src/ (Leaflet and supercluster
// included), the page, the styles, Leaflet's own CSS and the world/US outlines for the offline base map.
// Run by `npm install` (the prepare script) and `npm run build:dashboard`; the gateway serves the result.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const out = path.join(root, 'dist', 'dashboard');
const started = Date.now();

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

const result = await build({
  entryPoints: [path.join(here, 'src', 'main.ts')],
  bundle: true,
  // DASHBOARD_MINIFY=0: readable function names in profiles (bench/dashboard.ts PROFILE=1).
  minify: process.env.DASHBOARD_MINIFY !== '0',
  sourcemap: true,
  format: 'iife',
  target: ['chrome100', 'firefox100', 'safari15'],
  outfile: path.join(out, 'app.js'),
  metafile: true,
  logLevel: 'warning',
});

const copy = (from, to) => fs.copyFileSync(from, path.join(out, to));
copy(path.join(here, 'index.html'), 'index.html');
copy(path.join(here, 'style.css'), 'style.css');
copy(path.join(root, 'node_modules', 'leaflet', 'dist', 'leaflet.css'), 'leaflet.css');
// Base-map outlines: 1:50m countries and 1:10m US states are detailed enough for a city-level view and
// small enough (≈ 0.8 MB together, gzipped far less) for a first load.
copy(path.join(root, 'node_modules', 'world-atlas', 'countries-50m.json'), 'countries.json');
copy(path.join(root, 'node_modules', 'us-atlas', 'states-10m.json'), 'states.json');

const bundle = result.metafile.outputs[path.relative(process.cwd(), path.join(out, 'app.js'))]?.bytes ?? fs.statSync(path.join(out, 'app.js')).size;
console.log(`dashboard built in ${Date.now() - started} ms: app.js ${(bundle / 1024).toFixed(0)} KiB → ${path.relative(root, out)}`);
