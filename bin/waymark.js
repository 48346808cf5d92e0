#!/usr/bin/env node
// Runs the compiled CLI; `npm run build` (also run by `npm start`) produces it.
const path = require('node:path');
const fs = require('node:fs');
const entry = path.join(__dirname, '..', 'dist', 'gateway', 'cli', 'main.js');
if (!fs.existsSync(entry)) {
  process.stderr.write('waymark: not built yet; run `npm run build` in ' + path.join(__dirname, '..') + '\n');
  process.exit(1);
}
require(entry).main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => { process.stderr.write('waymark: ' + (err && err.message ? err.message : String(err)) + '\n'); process.exitCode = err && err.constructor && err.constructor.name === 'UsageError' ? 2 : 1; },
);
