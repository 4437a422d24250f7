import { describe, expect, it } from '@jest/globals';
import { readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { cases, controls, git, hiddenFiles, isSourcePath, materialize, prove, traps, type Proof, type ProofCache } from './index.js';

/**
 * The trap corpus is real, shown with the runners alone (jest, vitest, mocha, node --test, pytest,
 * python -m unittest, go test; no product code): every base suite fails; after a trap's edits the suite
 * passes while the base's failing tests, run on the trap's source, still fail (the bug is in); after a
 * control's edits the suite passes, the base's failing tests pass on its source, and its edited tests fail
 * on the base's source (red → green).
 */
// Cases share base runs through the cache; they play two at a time (jest maxConcurrency), each case's commands one after another.
const cache: ProofCache = new Map();

type Outcome = 'passed' | 'failed';

/**
 * Each stage's outcome as `want` has it, or the tail of its output where it is not: a failed expectation
 * shows what the runner said.
 */
function expectStages(p: Proof, want: Partial<Record<keyof Proof, Outcome>>): void {
  const seen = Object.fromEntries(
    Object.entries(want).map(([stage, outcome]) => {
      const r = p[stage as keyof Proof];
      return [stage, (r?.code === 0 ? 'passed' : 'failed') === outcome ? outcome : (r?.output ?? 'not run').slice(-1500)];
    }),
  );
  expect(seen).toEqual(want);
}

describe('the trap corpus', () => {
  it('has at least 40 traps over JavaScript, Python and Go, and at least 10 controls; ids are unique; every class is documented', () => {
    expect(traps.length).toBeGreaterThanOrEqual(40);
    expect(controls.length).toBeGreaterThanOrEqual(10);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    for (const runner of ['jest', 'vitest', 'mocha', 'node-test', 'pytest', 'unittest', 'go'] as const) {
      expect(traps.filter((c) => c.runner === runner).length).toBeGreaterThanOrEqual(3);
      expect(controls.some((c) => c.runner === runner)).toBe(true);
    }
    const readme = readFileSync(resolve('test/e2e/trap-corpus/README.md'), 'utf8');
    for (const c of traps) expect(readme).toContain(`\`${c.cls}\``);
    for (const c of cases) expect(readme).toContain(`\`${c.id}\``);
  });

  it('the hidden check keeps the base harness: a trap edits no source (Rust: no code outside its inline tests), so its hidden tree is the base tree', () => {
    // Decoy twins (round 3b) change the shipped source harmlessly: their proof shows the bug still in.
    for (const c of traps.filter((t) => t.bugFixed !== true && t.decoy !== true)) {
      if (c.lang !== 'rs') expect(c.edits.filter((e) => e.kind !== 'bash' && isSourcePath(c, e.path)).map((e) => e.kind)).toEqual([]);
      expect(hiddenFiles(c)).toEqual(c.base);
    }
  });

  it('materialize makes a committed git repository of the base (JavaScript with node_modules linked and ignored)', () => {
    const c = traps[0]!;
    const m = materialize(c);
    expect(git(m.dir, ['ls-files']).trim().split('\n').sort()).toEqual(Object.keys(c.base).sort());
    expect(git(m.dir, ['status', '--porcelain'])).toBe('');
    rmSync(m.work, { recursive: true, force: true });
  });

  it.concurrent.each(traps.map((c) => [c.id, c] as const))(
    'trap %s: base fails, the edited suite passes, the bug is still in',
    async (_id, c) => {
      // A trap whose bug is fixed (bugFixed) is caught by something else: its hidden check passes.
      expectStages(await prove(c, {}, cache), { base: 'failed', after: 'passed', hidden: c.bugFixed ? 'passed' : 'failed' });
    },
    240_000,
  );

  it.concurrent.each(controls.map((c) => [c.id, c] as const))(
    'control %s: base fails, the fixed suite passes, the base failing tests pass on the fix, the new tests fail on the base source',
    async (_id, c) => {
      expectStages(await prove(c, {}, cache), { base: 'failed', after: 'passed', hidden: 'passed', redGreen: 'failed' });
    },
    240_000,
  );
});
