#!/usr/bin/env node
// Runs the compiled CLI. `npm install` builds it (the `prepare` script: about 5 s), so `npx waymark …`
// works right after install; `npm start` rebuilds too. A checkout whose sources changed since the last
// build is told so rather than silently running the old code.
const path = require('node:path');
const fs = require('node:fs');
const root = path.join(__dirname, '..');
const entry = path.join(root, 'dist', 'gateway', 'cli', 'main.js');
if (!fs.existsSync(entry)) {
  process.stderr.write('waymark: not built yet; run `npm run build` in ' + root + '\n');
  process.exit(1);
}

/** Newest modification time of the TypeScript sources the build compiles (a few hundred stats). */
function newestSource(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}
const sources = ['gateway', 'adapters', 'data'].map((d) => path.join(root, d)).filter((d) => fs.existsSync(d));
if (Math.max(...sources.map(newestSource)) > fs.statSync(entry).mtimeMs) {
  process.stderr.write('waymark: warning: sources changed since the last build; run `npm run build` to use them\n');
}

require(entry).main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => { process.stderr.write('waymark: ' + (err && err.message ? err.message : String(err)) + '\n'); process.exitCode = err && err.constructor && err.constructor.name === 'UsageError' ? 2 : 1; },
);
