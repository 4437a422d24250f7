/**
 * Source of the CommonJS reporter the harness hands mocha (`--reporter <file>`): mocha's own json
 * reporter writes to a file (`--reporter-option output=`) only since mocha 9, and on stdout the tests'
 * own prints would mix with it. This reporter listens to the runner's events, which every mocha version
 * emits ('test end', 'pass', 'fail', 'pending', 'end'), writes the json reporter's shape to
 * PROOFPR_MOCHA_REPORT at the end, and prints one line per test for the run's output. Kept as a string
 * so the Action's single-file bundle carries it.
 */
export const MOCHA_REPORTER_SOURCE = `'use strict';
const fs = require('fs');
function ProofprMochaReporter(runner) {
  const tests = [];
  const pending = [];
  const failures = [];
  const passes = [];
  const one = (t, err) => ({ title: t.title, fullTitle: t.fullTitle(), file: t.file || undefined, err: err ? { message: String((err && err.message) || err) } : {} });
  runner.on('test end', (t) => { tests.push(one(t)); });
  runner.on('pass', (t) => { passes.push(one(t)); process.stdout.write('  ok ' + t.fullTitle() + '\\n'); });
  runner.on('pending', (t) => { pending.push(one(t)); process.stdout.write('  skipped ' + t.fullTitle() + '\\n'); });
  runner.on('fail', (t, err) => { failures.push(one(t, err)); process.stdout.write('  FAILED ' + t.fullTitle() + ': ' + String((err && err.message) || err) + '\\n'); });
  runner.once('end', () => {
    const out = process.env.PROOFPR_MOCHA_REPORT;
    const stats = { tests: tests.length, passes: passes.length, pending: pending.length, failures: failures.length };
    process.stdout.write(stats.passes + ' passing, ' + stats.failures + ' failing, ' + stats.pending + ' pending\\n');
    if (out) fs.writeFileSync(out, JSON.stringify({ stats, tests, pending, failures, passes }));
  });
}
module.exports = ProofprMochaReporter;
`;
