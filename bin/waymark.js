#!/usr/bin/env node
// Runs the compiled CLI. `npm install` builds it (the `prepare` script: about 5 s), so `npx waymark …`
// works right after install; `npm start` builds first only when a source changed (build-if-stale.js).
// A checkout whose sources changed since the last build is told so rather than silently running old code.
const path = require('node:path');
const fs = require('node:fs');
const root = path.join(__dirname, '..');
const entry = path.join(root, 'dist', 'server', 'cli', 'main.js');
if (!fs.existsSync(entry)) {
  process.stderr.write('waymark: not built yet; run `npm run build` in ' + root + '\n');
  process.exit(1);
}

const { staleSteps } = require('./build-state');
if (staleSteps().includes('gateway')) {
  process.stderr.write('waymark: warning: sources changed since the last build; run `npm run build` to use them\n');
}

// main() reports its own errors and answers the exit code (0 success, 1 failure, 2 usage).
// mainProcess: as main(), but `data import` runs itself again once with malloc's tunables (malloc-tunables.ts).
require(entry).mainProcess(process.argv.slice(2)).then((code) => { process.exitCode = code; });
