/**
 * Source of the CommonJS reporter the harness hands jasmine (`--reporter=<file>`): jasmine has no
 * machine-readable reporter of its own. Written by the harness into the run's report folder right
 * before the run; it writes every spec's file, full name and status to PROOFPR_JASMINE_REPORT when the
 * run ends. Kept as a string so the Action's single-file bundle carries it.
 */
export const JASMINE_REPORTER_SOURCE = `'use strict';
const fs = require('node:fs');
function ProofprJasmineReporter() {
  const specs = [];
  let overall = null;
  this.specDone = (r) => { specs.push({ file: r.filename || null, fullName: r.fullName, status: r.status }); };
  this.jasmineDone = (r) => {
    overall = r && r.overallStatus;
    const out = process.env.PROOFPR_JASMINE_REPORT;
    if (out) fs.writeFileSync(out, JSON.stringify({ reporter: 'proofpr-jasmine', overallStatus: overall, specs }));
  };
}
module.exports = ProofprJasmineReporter;
`;
