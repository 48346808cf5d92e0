// Prints, after jest's own summary, one line per test group skipped for something missing (the lines
// test/support/requires.ts recorded), then one closing line "tests: N passed, N failed, N skipped": the
// plain form CI recognises for any runner.
const fs = require('node:fs');
const path = require('node:path');

class SummaryLineReporter {
  onRunComplete(_contexts, results) {
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
