import { counts, type SummaryMatch } from './types.js';

const PKG = /^(ok|FAIL|\?)\s+\S+\s+(.*)$/;

/**
 * go test. Counts come from the `--- PASS:` / `--- FAIL:` / `--- SKIP:` lines, which go prints for every
 * test (subtests included, indented) only with -v (recognised by its `=== RUN` lines). Without -v go
 * prints only failures and one `ok  pkg  0.01s` line per package, so the counts are unknown (undefined:
 * run `go test -v` or configure test.report) — unless every package line says `[no tests to run]` or
 * `[no test files]`, which is a known 0-test run. A package whose tests did not build
 * (`[build failed]`, `[setup failed]`) counts as one failed test.
 */
export function parseGoTestSummary(lines: readonly string[]): SummaryMatch | undefined {
  let verbose = false;
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let pkgLines = 0;
  let emptyPkgs = 0;
  let unbuilt = 0;
  let last = -1;
  lines.forEach((line, i) => {
    if (/^=== RUN\s/.test(line)) verbose = true;
    const r = /^\s*--- (PASS|FAIL|SKIP): \S/.exec(line);
    if (r) {
      if (r[1] === 'PASS') passed++;
      else if (r[1] === 'FAIL') failed++;
      else skipped++;
      last = Math.max(last, i);
      return;
    }
    const p = PKG.exec(line);
    if (p && /^(\(cached\)|[\d.]+s|\[no test files\]|\[build failed\]|\[setup failed\])/.test(p[2] ?? '')) {
      pkgLines++;
      if (/\[no tests to run\]|\[no test files\]/.test(p[2] ?? '')) emptyPkgs++;
      // A package whose tests did not build is one failed test (see unbuilt.ts).
      if (/\[(?:build|setup) failed\]/.test(p[2] ?? '')) unbuilt++;
      last = i;
    }
  });
  if (last < 0) return undefined;
  if (verbose) return { counts: counts(passed, failed + unbuilt, skipped), line: last };
  if (pkgLines > 0 && emptyPkgs + unbuilt === pkgLines && failed === 0) return { counts: counts(0, unbuilt, 0), line: last };
  return undefined;
}
