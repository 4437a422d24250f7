import { unbuiltTargets } from '../runners/cargo.js';
import { counts, type SummaryMatch } from './types.js';

/**
 * cargo test / libtest: one `test result: ok. 2 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; …`
 * line per test binary (unit tests, each integration test, doc-tests); they are summed. Ignored tests
 * are skipped; filtered-out tests are not part of the run. A target that does not compile counts as one
 * failed test.
 */
export function parseCargoSummary(lines: readonly string[]): SummaryMatch | undefined {
  let passed = 0;
  let failed = 0;
  let ignored = 0;
  let last = -1;
  lines.forEach((line, i) => {
    const m = /^\s*test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored;/.exec(line);
    if (!m) return;
    passed += Number(m[1]);
    failed += Number(m[2]);
    ignored += Number(m[3]);
    last = i;
  });
  // A target that did not compile is one failed test (see unbuilt.ts).
  const unbuilt = unbuiltTargets(lines).length;
  if (unbuilt)
    last = Math.max(
      last,
      lines.findIndex((l) => l.trim().startsWith('error: could not compile')),
    );
  return last < 0 ? undefined : { counts: counts(passed, failed + unbuilt, ignored), line: last };
}
