// Prints, after jest's own summary, one line per test group skipped for something missing (the lines
// test/support/requires.ts recorded), then one closing line "tests: N passed, N failed, N skipped": the
// plain form CI recognises for any runner.
const fs = require('node:fs');
const path = require('node:path');

/**
 * The OpenAPI check's figures (test/support/openapi-check.ts): answers validated, operations of the
 * document they covered, and the operations no test called.
 */
function openApiLine() {
  const log = process.env.WAYMARK_TEST_OPENAPI_LOG;
  if (!log || !fs.existsSync(log)) return '';
  const operations = new Set();
  const seen = new Map();
  for (const line of fs.readFileSync(log, 'utf8').split('\n')) {
    if (line === '') continue;
    const entry = JSON.parse(line);
    entry.operations.forEach((op) => operations.add(op));
    for (const [key, n] of Object.entries(entry.seen)) seen.set(key, (seen.get(key) ?? 0) + n);
  }
  const covered = new Set([...seen.keys()].map((key) => key.replace(/ \d+$/, '')).filter((op) => operations.has(op)));
  const answers = [...seen.values()].reduce((a, b) => a + b, 0);
  const uncalled = [...operations].filter((op) => !covered.has(op)).sort();
  return `\nopenapi: ${answers} answers validated against the document; ${covered.size} of ${operations.size} operations covered (${seen.size} operation-status pairs)` +
    (uncalled.length ? `; not called by these tests: ${uncalled.join(', ')}` : '') + '\n';
}

class SummaryLineReporter {
  onRunComplete(_contexts, results) {
    process.stdout.write(openApiLine());
    const log = process.env.WAYMARK_TEST_SKIP_LOG;
    if (log && fs.existsSync(log)) {
      const lines = [...new Set(fs.readFileSync(log, 'utf8').split('\n').filter((l) => l !== ''))].sort();
      if (lines.length) process.stdout.write(`\n${lines.join('\n')}\n`);
      fs.rmSync(path.dirname(log), { recursive: true, force: true });
    }
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(`\ntests: ${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
module.exports = SummaryLineReporter;
