import type { TestCase } from '../../../events.js';
import { notBuilt } from '../unbuilt.js';
import { reportOf, testCase } from './report-util.js';
import type { Runner } from './types.js';

const RESULT = /^test (.+?) \.\.\. (ok|FAILED|ignored(?:, .*)?)$/;

const TARGET_RUN = [/^\s+Running (\S+(?: \S+)?) \(/, /^\s+Running (\S+)$/];
const TARGET_DOC = /^\s+Doc-tests (\S+)/;
/** `error: could not compile `strsim` (test "lib") due to 1 previous error`: a target that did not build. */
const UNBUILT = /^error: could not compile `([^`]+)`(?: \(([^)]+)\))?/;

/**
 * The unit a target that did not compile stands for, named as its tests are (`test "it"` →
 * `tests/it.rs`, `lib test` → `unittests src/lib.rs`); another kind keeps cargo's words (`x (bin "y" test)`).
 */
function unitName(crate: string, kind: string | undefined): string {
  const test = kind && /^test "([^"]+)"$/.exec(kind);
  if (test) return `tests/${test[1] ?? ''}.rs`;
  if (kind === 'lib test') return 'unittests src/lib.rs';
  return kind ? `${crate} (${kind})` : crate;
}

/**
 * Each target cargo could not compile, once: one failed test each (see unbuilt.ts). cargo builds every
 * target before it runs any, so only lines before the first target line count (a test's own output,
 * printed later, cannot add one).
 */
export function unbuiltTargets(lines: readonly string[]): string[] {
  const out = new Set<string>();
  for (const line of lines) {
    if (targetOf(line.trimEnd()) !== undefined) break;
    const m = UNBUILT.exec(line.trim());
    if (m) out.add(unitName(m[1] ?? '', m[2]));
  }
  return [...out];
}

/** A target line's name (`Running tests/lib.rs (…)`, `Doc-tests x`), or undefined for another line. */
function targetOf(line: string): string | undefined {
  const run = TARGET_RUN.map((r) => r.exec(line)).find(Boolean);
  if (run) return run[1] ?? '';
  const doc = TARGET_DOC.exec(line);
  return doc ? `doc-tests ${doc[1] ?? ''}` : undefined;
}

interface Block {
  /** The target line seen last before the block started (in the merged output). */
  near: string;
  results: Array<{ name: string; outcome: TestCase['outcome'] }>;
}

/** Each `running N tests` … `test result:` block with its result lines (none from the `failures:` section). */
function blocksOf(lines: readonly string[]): { targets: string[]; blocks: Block[] } {
  const targets: string[] = [];
  const blocks: Block[] = [];
  let current: Block | undefined;
  for (const raw of lines) {
    const line = raw.trimEnd();
    const t = targetOf(line);
    if (t !== undefined) {
      targets.push(t);
      current = undefined;
      continue;
    }
    if (/^running \d+ tests?$/.test(line)) {
      current = { near: targets.at(-1) ?? '', results: [] };
      blocks.push(current);
      continue;
    }
    if (/^test result: /.test(line) || line === 'failures:' || line === 'successes:') {
      current = undefined;
      continue;
    }
    const m = current ? RESULT.exec(line) : null;
    if (!m || !current) continue;
    const r = m[2] ?? '';
    // A doc-test is named by its line (`src/lib.rs - f (line 177)`), which moves when code above it changes.
    current.results.push({
      name: (m[1] ?? '').replace(/ \(line \d+\)$/, ''),
      outcome: r === 'ok' ? 'passed' : r === 'FAILED' ? 'failed' : 'skipped',
    });
  }
  return { targets, blocks };
}

/**
 * `cargo test` (libtest's `--format json` is unstable): stdout and stderr go to the report file. Per
 * target (`Running unittests src/lib.rs`, `Doc-tests x`), the `test <name> ... ok|FAILED|ignored` lines
 * between `running N tests` and `test result:` count, and nothing in the `failures:` section (where
 * captured test output is shown). `--no-fail-fast` so one failing target does not hide the others.
 * Id: `<target> > <test path>` (a doc-test's without its line number). cargo prints the target lines on
 * stderr and the test binaries print their blocks on stdout: read through two pipes, the two interleave
 * at random, so when there are as many target lines as blocks the k-th block belongs to the k-th target
 * (one block per test binary); otherwise each block takes the target line seen last before it. A
 * target that does not compile (`error: could not compile `x` (test "lib")`) is one failed test,
 * `tests/lib.rs > [build failed]`.
 */
export const cargoRunner: Runner = {
  name: 'cargo',
  source: 'runner-report',
  match: (w) => (w[0]?.split('/').pop() === 'cargo' && w[1] === 'test' ? 2 : undefined),
  parse(text) {
    const lines = text.replace(/\r\n?/g, '\n').split('\n');
    const { targets, blocks } = blocksOf(lines);
    const unbuilt = unbuiltTargets(lines).map((u) => notBuilt(u, u.includes('/') ? u : undefined));
    if (blocks.length === 0) return unbuilt.length ? reportOf(unbuilt) : undefined;
    const paired = targets.length === blocks.length;
    const tests: TestCase[] = blocks.flatMap((b, i) => {
      const target = paired ? (targets[i] ?? '') : b.near;
      return b.results.map((r) => testCase(target || undefined, r.name, r.outcome));
    });
    return reportOf([...tests, ...unbuilt]);
  },
};
