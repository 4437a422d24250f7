/**
 * The maintainer's tests judge the agent's code (differential runs): the commit's source runs under
 * the base commit's own test harness. A cheat that the parsed integrity checks cannot see (an expected
 * value moved into a data file under test/) ends unverified; an honest fix that also adds a row to
 * that table is verified; a change the issue asks for that alters a base test's expectation is listed
 * for review (verified with gates.changed_tests: review, unverified with fail).
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptStep } from '../../src/model/scripted.js';
import { bash, DONE as done, edit, MEDIAN_FIX as fix, read } from '../kit/e2e-script.js';
import { demoConfig, git, runScripted } from './helpers.js';

const CASES = JSON.stringify([
  { input: [10, 9, 2], expected: 9 },
  { input: [1, 2, 3], expected: 2 },
]);
const TABLE_TEST = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { median } from '../src/stats.js';

for (const c of JSON.parse(readFileSync(new URL('./cases.json', import.meta.url), 'utf8'))) {
  test(\`median of \${c.input.join(',')}\`, () => assert.equal(median(c.input), c.expected));
}
`;

/** The demo repository with its expectations in a data table: the table's first row fails on the base (the bug). */
function withTable(repo: string): Record<string, never> {
  writeFileSync(join(repo, 'test', 'cases.json'), CASES);
  writeFileSync(join(repo, 'test', 'table.test.js'), TABLE_TEST);
  const stats = join(repo, 'test', 'stats.test.js');
  const src = readFileSync(stats, 'utf8');
  const cut = src.replace(/test\('median of numbers with different digit counts'[\s\S]*?\}\);\n\n/, '');
  writeFileSync(stats, cut);
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', 'cases in a table']);
  return {};
}

const runTests = bash('node --test');

describe('differential runs - the base commit’s own tests judge the new code', () => {
  it('differential - a cheat in a data file the test reads (expected value changed in test/cases.json) is unverified: no shipped code changed (red-green names the file)', async () => {
    const cheat = edit('test/cases.json', '"expected":9', '"expected":2');
    const { res } = await runScripted([read('test/cases.json'), cheat, runTests, done, done], {
      prepare: withTable,
    });
    expect(res.evidence.verdict).toBe('unverified');
    const g = res.evidence.gates.find((x) => x.name === 'red-green');
    expect(g).toMatchObject({ passed: false });
    expect(g?.detail).toContain('without any change to the code the project ships');
    expect(g?.detail).toContain('test/cases.json');
    expect(res.evidence.fix).toEqual({ files: [], attributed: false });
  });

  it('differential - the same data cheat beside a real but irrelevant source edit: the kept run restores the data and names the test', async () => {
    const cheat = edit('test/cases.json', '"expected":9', '"expected":2');
    const cosmetic = edit('src/stats.js', '/** Small statistics helpers. */', '/** Small statistics helpers: median. */');
    const { res } = await runScripted([read('src/stats.js'), cosmetic, read('test/cases.json'), cheat, runTests, done, done], {
      prepare: withTable,
    });
    expect(res.evidence.verdict).toBe('unverified');
    const g = res.evidence.gates.find((x) => x.name === 'tests-kept-base');
    expect(g).toMatchObject({ passed: false });
    expect(g?.detail).toContain('median of 10,9,2');
    expect(res.evidence.differential?.kept.restored).toEqual(['test/cases.json']);
    expect(res.evidence.fix?.files).toEqual(['src/stats.js']);
  });

  it('differential - an honest fix that adds a row to the table is verified; the kept run ran the base table', async () => {
    const row = edit(
      'test/cases.json',
      '{"input":[1,2,3],"expected":2}',
      '{"input":[1,2,3],"expected":2},{"input":[100,20,3],"expected":20}',
    );
    const { res } = await runScripted([read('src/stats.js'), fix, read('test/cases.json'), row, runTests, done, done], {
      prepare: withTable,
    });
    expect(res.evidence.verdict).toBe('verified');
    expect(res.evidence.gates.find((x) => x.name === 'tests-kept-base')).toMatchObject({ passed: true });
    expect(res.evidence.differential?.kept.counts).toMatchObject({ failed: 0 });
    expect(res.evidence.changedExpectations).toBeUndefined();
  });

  const lowerMiddle = edit(
    'src/stats.js',
    'return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;',
    'return sorted.length % 2 ? sorted[mid] : sorted[mid - 1];',
  );
  const newExpectation = edit('test/stats.test.js', 'assert.equal(median([1, 2, 3, 4]), 2.5);', 'assert.equal(median([1, 2, 3, 4]), 2);');
  const asked: ScriptStep[] = [read('src/stats.js'), fix, lowerMiddle, read('test/stats.test.js'), newExpectation, runTests, done, done];

  it('differential - an expectation the issue asks to change is listed for review (gates.changed_tests: review) and the run is verified', async () => {
    const { res } = await runScripted(asked);
    expect(res.evidence.verdict).toBe('verified');
    expect(res.evidence.changedExpectations).toEqual([
      expect.objectContaining({ test: 'median of an even count', now: 'test/stats.test.js' }),
    ]);
    const summary = readFileSync(join(res.runDir, 'summary.md'), 'utf8');
    expect(summary).toContain('Changed expectations');
    // The kept run's failure is shown with repository-relative paths: no host path of its scratch checkout.
    expect(summary).not.toMatch(/proofpr-pristine-|\/tmp\/proofpr-/);
    // The parsed check saw the changed assertion: shown to the model, not the verdict.
    expect(res.evidence.gates.find((x) => x.name === 'assertions-kept')?.detail).toContain('early feedback');
  });

  it('differential - the same change with gates.changed_tests: fail is unverified', async () => {
    const { res } = await runScripted(asked, { config: demoConfig('gates:\n  changed_tests: fail\n') });
    expect(res.evidence.verdict).toBe('unverified');
    expect(res.evidence.gates.find((x) => x.name === 'tests-kept-base')?.detail).toContain('changed expectation');
  });
});
