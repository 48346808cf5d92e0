// Prints one closing line "tests: N passed, N failed, N skipped" after jest's own summary,
// the plain form CI recognises for any runner.
class SummaryLineReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(`\ntests: ${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
module.exports = SummaryLineReporter;
