// Whether dist/ is older than the sources it is built from: one answer for `npm start` (which builds only
// then) and for the `waymark` command (which warns). A stat of each source, no reading: a few hundred
// stats, a few milliseconds.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');

/** Each build step: what it writes last (its stamp) and the folders whose files it compiles. */
const STEPS = [
  { name: 'gateway', stamp: 'dist/server/cli/main.js', sources: ['core', 'ports', 'adapters', 'server', 'importers'], ext: ['.ts'], also: ['tsconfig.json', 'tsconfig.build.json'] },
  { name: 'dashboard', stamp: 'dist/dashboard/app.js', sources: ['dashboard'], ext: ['.ts', '.html', '.css', '.mjs'], also: [] },
];

function newest(dir, ext) {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(full, ext));
    else if (ext.some((e) => entry.name.endsWith(e))) latest = Math.max(latest, fs.statSync(full).mtimeMs);
  }
  return latest;
}

function mtime(root, rel) {
  try {
    return fs.statSync(path.join(root, rel)).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * Names of the build steps whose output is missing or older than a source ([] when dist/ is current).
 * Sources absent from the tree (an image holds dist/ only) count as older than any build.
 */
function staleSteps(root = ROOT) {
  return STEPS.filter((step) => {
    const built = mtime(root, step.stamp);
    if (built === undefined) return true;
    const dirs = step.sources.map((d) => path.join(root, d)).filter((d) => fs.existsSync(d));
    const latest = Math.max(0, ...dirs.map((d) => newest(d, step.ext)), ...step.also.map((f) => mtime(root, f) ?? 0));
    return latest > built;
  }).map((step) => step.name);
}

module.exports = { ROOT, staleSteps };
