/**
 * A Go test change that does not compile without the fix. Replayed alone (the test-only change) it ends
 * unverified with a COUNTED failing harness run of the final tree, whose failing test names the package
 * that did not build; with the fix it is verified, the red run on the base being that build failure.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { text, toolUse, type ScriptStep } from '../../../src/model/scripted.js';
import { makeRepo, runOn, runsOf } from './kit.js';

jest.setTimeout(180_000);

const FILES: Record<string, string> = {
  'go.mod': 'module example.com/calc\n\ngo 1.19\n',
  'calc.go':
    'package calc\n\n// Abs returns the absolute value of n.\nfunc Abs(n int) int {\n\tif n < 0 {\n\t\treturn -n\n\t}\n\treturn n\n}\n',
  'calc_test.go': 'package calc\n\nimport "testing"\n\nfunc TestAbs(t *testing.T) {\n\tif Abs(-2) != 2 {\n\t\tt.Fatal("abs")\n\t}\n}\n',
};
const NEW_TEST =
  'package calc\n\nimport "testing"\n\nfunc TestAbsAll(t *testing.T) {\n\tif got := AbsAll([]int{-1, 2}); got[0] != 1 || got[1] != 2 {\n\t\tt.Fatalf("AbsAll = %v", got)\n\t}\n}\n';
const NEW_FN =
  '\n// AbsAll returns the absolute value of each n.\nfunc AbsAll(ns []int) []int {\n\tout := make([]int, len(ns))\n\tfor i, n := range ns {\n\t\tout[i] = Abs(n)\n\t}\n\treturn out\n}\n';
const CONFIG = 'test:\n  command: go test ./...\npermissions:\n  allow: ["Bash(go test:*)"]\n';
const PKG = 'example.com/calc';

/** The steps, then "Done." whenever the harness returns the run to the model. */
const script =
  (steps: ScriptStep[]) =>
  (_req: unknown, turn: number): ScriptStep =>
    steps[turn - 1] ?? { content: [text('Done.')] };

describe('a test change that does not build without the fix (go)', () => {
  it('test-only: unverified, and the final harness run is counted: the package that did not build is its failing test', async () => {
    const repo = makeRepo(FILES);
    const steps: ScriptStep[] = [
      { content: [toolUse('Write', { file_path: 'calc_all_test.go', content: NEW_TEST })] },
      { content: [toolUse('Bash', { command: 'go test ./...' })] },
    ];
    const { res } = await runOn(repo, script(steps) as never, CONFIG);
    expect(res.evidence.verdict).toBe('unverified');
    const { final } = runsOf(res);
    expect(final?.counts).toMatchObject({ failed: 1, total: 1 });
    expect(final?.tests?.map((t) => `${t.id}: ${t.outcome}`)).toEqual([`${PKG} > [build failed]: failed`]);
  });

  it('with the fix: verified; the new test did not build on the base (red), and counts equal go test -v', async () => {
    const repo = makeRepo(FILES);
    const steps: ScriptStep[] = [
      { content: [toolUse('Write', { file_path: 'calc_all_test.go', content: NEW_TEST })] },
      { content: [toolUse('Read', { file_path: 'calc.go' })] },
      { content: [toolUse('Edit', { file_path: 'calc.go', old_string: '\treturn n\n}\n', new_string: `\treturn n\n}\n${NEW_FN}` })] },
      { content: [toolUse('Bash', { command: 'go test ./...' })] },
    ];
    const { res } = await runOn(repo, script(steps) as never, CONFIG);
    expect(res.evidence.verdict).toBe('verified');
    const { final } = runsOf(res);
    expect(final?.counts).toMatchObject({ passed: 2, failed: 0, total: 2 });
    const red = res.evidence.gates.find((g) => g.name === 'red-green');
    expect(red?.passed).toBe(true);
    expect(red?.detail).toContain(`${PKG} > [build failed]`);
  });
});
