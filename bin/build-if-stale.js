#!/usr/bin/env node
// `npm start`'s first step: builds dist/ when a source is newer than it (or it is missing), and otherwise
// does nothing, so a start on a built tree goes straight to serving instead of compiling for half a minute.
'use strict';
const { spawnSync } = require('node:child_process');
const { ROOT, staleSteps } = require('./build-state');

const stale = staleSteps();
if (stale.length > 0) {
  process.stderr.write(`waymark: ${stale.join(' and ')} sources changed since the last build: building first (npm run build)\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
