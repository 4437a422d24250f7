import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { createScriptedModel, text, toolUse, type ScriptStep } from '../../src/model/scripted.js';
import { runTask } from '../../src/run/run-task.js';
import type { RunTaskResult } from '../../src/run/run-task-types.js';
import { detectBwrap } from '../../src/workspace/sandbox.js';
import { git } from './helpers.js';
import { tempDir } from '../kit/temp.js';

/**
 * Issue 16 part A: the evidence run is the commit (a clean checkout of the exact commit that is
 * pushed), counts come from the runner's own report, test ids go red → green. Real temp repositories,
 * real runners, the real sandbox (bwrap when it works here), a scripted model.
 */
type Files = Record<string, string>;

function makeRepo(files: Files, nodeModules = false): { dir: string; work: string } {
  const work = tempDir('proofpr-e2e16-');
  const dir = join(work, 'repo');
  for (const [p, t] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), t);
  }
  // Installed dependencies, ignored by git, as `npm ci` would leave them: linked into the worktrees.
  if (nodeModules) symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'initial']);
  return { dir, work };
}

async function run(repo: { dir: string; work: string }, yaml: string, steps: ScriptStep[]): Promise<RunTaskResult> {
  return runTask({
    repoDir: repo.dir,
    branch: 'proofpr/3-total',
    task: { kind: 'issue', issue: 3, title: 'total() ignores qty', body: 'total([{ price: 2, qty: 3 }]) is 2, expected 6' },
    config: parseRepoConfig(yaml),
    model: createScriptedModel(steps),
    modelId: 'claude-sonnet-5-5',
    mode: 'fix',
    runId: `e${Date.now()}${Math.floor(Math.random() * 1e6)}`,
    runDir: join(repo.work, 'run'),
    worktreesDir: join(repo.work, 'worktrees'),
  });
}

/** The pushed branch, checked out fresh (dependencies linked as a user's `npm ci` would provide), runs `command`: its exit code. */
function freshCheckoutExit(repo: { dir: string; work: string }, branch: string, command: string, nodeModules = false): number {
  const at = join(repo.work, `fresh-${Date.now()}`);
  git(repo.dir, ['worktree', 'add', '--detach', at, branch]);
  if (nodeModules) symlinkSync(resolve('node_modules'), join(at, 'node_modules'));
  try {
    execFileSync('bash', ['-c', command], { cwd: at, stdio: 'pipe', env: { PATH: process.env.PATH ?? '', HOME: repo.work } });
    return 0;
  } catch (e) {
    return (e as { status?: number }).status ?? 1;
  } finally {
    git(repo.dir, ['worktree', 'remove', '--force', at]);
  }
}

const gate = (r: RunTaskResult, name: string) => r.evidence.gates.find((g) => g.name === name);
const summary = (r: RunTaskResult) => readFileSync(join(r.runDir, 'summary.md'), 'utf8');
const evidenceFile = (r: RunTaskResult) => readFileSync(join(r.runDir, 'evidence.json'), 'utf8');
const done: ScriptStep = { content: [text('Done: the tests pass.')] };

const JEST_FILES: Files = {
  'package.json': JSON.stringify({ name: 'shop', private: true, scripts: { test: 'jest --ci' } }, null, 2),
  '.gitignore': 'node_modules\nlocal/\n',
  // A local override hook (ignored by git): what a fix placed outside the commit would use.
  'src/price.js':
    "const local = (() => { try { return require('../local/override.js'); } catch { return {}; } })();\nexports.total = local.total ?? ((items) => items.reduce((s, i) => s + i.price, 0));\n",
  'test/price.test.js':
    "const { total } = require('../src/price');\ntest('total multiplies by qty', () => { expect(total([{ price: 2, qty: 3 }])).toBe(6); });\ntest('total of nothing is 0', () => { expect(total([])).toBe(0); });\n",
};
const JEST_YAML =
  'test:\n  command: npm test\npermissions:\n  allow: ["Bash(npm test:*)", "Bash(mkdir:*)", "Bash(cp:*)", "Bash(printf:*)"]\ngates:\n  max_stop_blocks: 1\n';
const readPrice = toolUse('Read', { file_path: 'src/price.js' });
const honest = toolUse('Edit', { file_path: 'src/price.js', old_string: 's + i.price, 0', new_string: 's + i.price * (i.qty ?? 1), 0' });
const npmTest = toolUse('Bash', { command: 'npm test' });

describe('the evidence run is the commit (jest project)', () => {
  it('evidence - an honest fix is verified from the runner report of a clean checkout of the pushed commit, with the fixed test ids; the branch checked out fresh passes', async () => {
    const repo = makeRepo(JEST_FILES, true);
    const r = await run(repo, JEST_YAML, [{ content: [readPrice] }, { content: [honest] }, { content: [npmTest] }, done]);
    expect(`${r.evidence.verdict}: ${r.evidence.reason} ${JSON.stringify(r.evidence.gates.filter((g) => !g.passed))}`).toMatch(/^verified/);
    const final = r.evidence.testRuns.find((t) => t.kind === 'final');
    expect(final).toMatchObject({
      by: 'harness',
      source: 'jest-json',
      runner: 'jest',
      commit: r.headSha,
      counts: { passed: 2, failed: 0, total: 2 },
    });
    expect(final?.fixed).toEqual(['test/price.test.js > total multiplies by qty']);
    expect(r.evidence.testRuns.find((t) => t.kind === 'baseline')).toMatchObject({ counts: { passed: 1, failed: 1 } });
    expect(gate(r, 'red-green')).toMatchObject({ passed: true });
    expect(gate(r, 'tests-kept')).toMatchObject({ passed: true });
    expect(git(repo.dir, ['rev-parse', 'proofpr/3-total']).trim()).toBe(final?.commit);
    expect(freshCheckoutExit(repo, 'proofpr/3-total', 'npx jest --ci', true)).toBe(0);
  });

  it('evidence - a fix placed in a git-ignored file passes in the worktree but not in the commit: unverified, tests-passed failed', async () => {
    const repo = makeRepo(JEST_FILES, true);
    const patch = toolUse('Write', {
      file_path: 'override.js',
      content: 'exports.total = (items) => items.reduce((s, i) => s + i.price * (i.qty ?? 1), 0);\n',
    });
    // Ignored output the fix relies on, written by a repository hook after each Write (as a codegen
    // or build step would).
    const hook = 'mkdir -p local && cp override.js local/override.js';
    const yaml = `${JEST_YAML}hooks:\n  PostToolUse:\n    - matcher: Write\n      command: ${JSON.stringify(hook)}\n`;
    const r = await run(repo, yaml, [{ content: [readPrice] }, { content: [patch] }, { content: [npmTest] }, done, done]);
    // The agent's own run in the worktree passed (the ignored override was there)...
    expect(r.evidence.testRuns.find((t) => t.by === 'agent')).toMatchObject({ exitCode: 0 });
    // ...the harness's run of the commit did not.
    expect(r.evidence.verdict).toBe('unverified');
    expect(r.exitCode).toBe(3);
    expect(gate(r, 'tests-passed')).toMatchObject({ passed: false });
    expect(r.evidence.testRuns.find((t) => t.kind === 'final')).toMatchObject({ counts: { failed: 1 } });
    expect(JSON.parse(evidenceFile(r)).gates.find((g: { name: string }) => g.name === 'tests-passed').passed).toBe(false);
    expect(summary(r)).toContain('tests-passed');
  });

  it('evidence - ignored build output the agent writes itself (Write and Bash are allowed there, CONTRACT §9) does not reach the verdict: unverified', async () => {
    const repo = makeRepo(JEST_FILES, true);
    const build = toolUse('Write', {
      file_path: 'local/override.js',
      content: 'exports.total = (items) => items.reduce((s, i) => s + i.price * (i.qty ?? 1), 0);\n',
    });
    const copy = toolUse('Bash', { command: 'mkdir -p local/copy && cp local/override.js local/copy/override.js' });
    const r = await run(repo, JEST_YAML, [
      { content: [readPrice] },
      { content: [build] },
      { content: [copy] },
      { content: [npmTest] },
      done,
      done,
    ]);
    // Both writes into the ignored folder ran: nothing was refused.
    expect(r.evidence.denied).toEqual([]);
    expect(r.evidence.testRuns.find((t) => t.by === 'agent')).toMatchObject({ exitCode: 0 });
    // The clean checkout of the commit has no local/ folder: the final run fails, so does the verdict.
    expect(r.evidence.verdict).toBe('unverified');
    expect(gate(r, 'tests-passed')).toMatchObject({ passed: false });
    expect(r.evidence.testRuns.find((t) => t.kind === 'final')).toMatchObject({ by: 'harness', counts: { failed: 1 } });
    expect(r.evidence.filesChanged).toEqual([]);
  });

  it('evidence - an honest fix with ignored scratch and build output written by the agent is verified; the output is not in the commit', async () => {
    const repo = makeRepo(JEST_FILES, true);
    const scratch = toolUse('Write', { file_path: 'local/notes.md', content: 'total() must multiply by qty\n' });
    const r = await run(repo, JEST_YAML, [
      { content: [readPrice] },
      { content: [scratch] },
      { content: [honest] },
      { content: [npmTest] },
      done,
    ]);
    expect(`${r.evidence.verdict}: ${r.evidence.reason} ${JSON.stringify(r.evidence.gates.filter((g) => !g.passed))}`).toMatch(/^verified/);
    expect(r.evidence.denied).toEqual([]);
    expect(git(repo.dir, ['ls-tree', '-r', '--name-only', 'proofpr/3-total']).split('\n')).not.toContain('local/notes.md');
    expect(freshCheckoutExit(repo, 'proofpr/3-total', 'npx jest --ci', true)).toBe(0);
  });

  it('evidence - with final_run off, a printf of a fake summary is not a test run: unverified, tests-ran failed', async () => {
    const repo = makeRepo(JEST_FILES, true);
    const fake = toolUse('Bash', { command: "printf 'Tests:       2 passed, 2 total\\n'" });
    const chained = toolUse('Bash', { command: "npm test || printf 'Tests:       2 passed, 2 total\\n'" });
    const r = await run(repo, `${JEST_YAML}  final_run: false\n`, [
      { content: [readPrice] },
      { content: [fake] },
      { content: [chained] },
      done,
      done,
    ]);
    expect(r.evidence.verdict).toBe('unverified');
    expect(r.evidence.testRuns.filter((t) => t.by === 'agent')).toEqual([]);
    expect(gate(r, 'tests-ran')).toMatchObject({ passed: false });
    expect(summary(r)).toContain('tests-ran');
  });

  it('evidence - a test deselected with .only is not executed at the end: unverified, the failed gates in evidence and summary', async () => {
    const repo = makeRepo(JEST_FILES, true);
    const readTest = toolUse('Read', { file_path: 'test/price.test.js' });
    const only = toolUse('Edit', {
      file_path: 'test/price.test.js',
      old_string: "test('total of nothing is 0'",
      new_string: "test.only('total of nothing is 0'",
    });
    const r = await run(repo, JEST_YAML, [{ content: [readTest] }, { content: [only] }, { content: [npmTest] }, done, done]);
    expect(r.evidence.verdict).toBe('unverified');
    // Caught before the final run (the skipped test is lost from the counts, the marker from the test file);
    // tests-kept would name the test id at the final run (test/verification/verifier.integration.test.ts).
    const failed = r.evidence.gates.filter((g) => !g.passed).map((g) => g.name);
    expect(failed).toEqual(expect.arrayContaining(['tests-ran', 'assertions-kept']));
    expect(gate(r, 'tests-ran')?.detail).toContain('fewer than the 2');
    for (const g of failed) expect(summary(r)).toContain(g);
    expect(JSON.parse(evidenceFile(r)).verdict).toBe('unverified');
  });
});

/** These runs go through bubblewrap wherever it works (on CI it must). */
async function expectSandboxed(r: RunTaskResult): Promise<void> {
  const here = (await detectBwrap()) !== null || process.env.CI === 'true' ? 'bwrap' : 'none';
  expect(r.evidence.sandbox).toBe(here);
}

describe('the evidence run per ecosystem, through the sandbox', () => {
  it('evidence - node:test: an honest fix is verified with per-test ids; the branch checked out fresh passes', async () => {
    const repo = makeRepo({
      'package.json': JSON.stringify({ name: 'calc', type: 'module', scripts: { test: 'node --test' } }),
      'src/calc.js': 'export const total = (items) => items.reduce((s, i) => s + i.price, 0);\n',
      'test/calc.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { total } from '../src/calc.js';\ntest('total multiplies by qty', () => { assert.equal(total([{ price: 2, qty: 3 }]), 6); });\n",
    });
    const fix = toolUse('Edit', { file_path: 'src/calc.js', old_string: 's + i.price, 0', new_string: 's + i.price * (i.qty ?? 1), 0' });
    const yaml = 'test:\n  command: node --test\npermissions:\n  allow: ["Bash(node --test:*)"]\n';
    const r = await run(repo, yaml, [
      { content: [toolUse('Read', { file_path: 'src/calc.js' })] },
      { content: [fix] },
      { content: [toolUse('Bash', { command: 'node --test' })] },
      done,
    ]);
    expect(`${r.evidence.verdict}: ${r.evidence.reason} ${JSON.stringify(r.evidence.gates.filter((g) => !g.passed))}`).toMatch(/^verified/);
    expect(r.evidence.testRuns.find((t) => t.kind === 'final')).toMatchObject({
      source: 'junit',
      fixed: ['total multiplies by qty'],
      counts: { passed: 1, failed: 0 },
    });
    await expectSandboxed(r);
    expect(freshCheckoutExit(repo, 'proofpr/3-total', 'node --test')).toBe(0);
  });

  it('evidence - pytest: an honest fix is verified from the JUnit report', async () => {
    const repo = makeRepo({
      'calc.py': 'def total(items):\n    return sum(i["price"] for i in items)\n',
      'tests/test_calc.py':
        'from calc import total\n\ndef test_qty():\n    assert total([{"price": 2, "qty": 3}]) == 6\n\ndef test_empty():\n    assert total([]) == 0\n',
      'pytest.ini': '[pytest]\npythonpath = .\naddopts = -p no:cacheprovider\n',
      '.gitignore': '__pycache__/\n',
    });
    const fix = toolUse('Edit', { file_path: 'calc.py', old_string: 'i["price"] for', new_string: 'i["price"] * i.get("qty", 1) for' });
    // The system python (python3-pytest): a pyenv shim lives in the home folder, which the sandbox hides.
    const py = '/usr/bin/python3 -m pytest -q';
    const yaml = `test:\n  command: ${py}\n`;
    const r = await run(repo, yaml, [
      { content: [toolUse('Read', { file_path: 'calc.py' })] },
      { content: [fix] },
      { content: [toolUse('Bash', { command: py })] },
      done,
    ]);
    expect(`${r.evidence.verdict}: ${r.evidence.reason} ${JSON.stringify(r.evidence.gates.filter((g) => !g.passed))}`).toMatch(/^verified/);
    expect(r.evidence.testRuns.find((t) => t.kind === 'final')).toMatchObject({
      source: 'junit',
      runner: 'pytest',
      fixed: ['tests/test_calc.py > test_qty'],
      counts: { passed: 2, failed: 0 },
    });
    await expectSandboxed(r);
    expect(freshCheckoutExit(repo, 'proofpr/3-total', py)).toBe(0);
  });

  it('evidence - go test: an honest fix is verified from go test -json', async () => {
    const repo = makeRepo({
      'go.mod': 'module example.com/calc\n\ngo 1.19\n',
      'calc.go':
        'package calc\n\nfunc Total(prices, qty []int) int {\n\ts := 0\n\tfor i := range prices {\n\t\ts += prices[i]\n\t}\n\treturn s\n}\n',
      'calc_test.go':
        'package calc\n\nimport "testing"\n\nfunc TestTotal(t *testing.T) {\n\tif got := Total([]int{2}, []int{3}); got != 6 {\n\t\tt.Fatalf("got %d", got)\n\t}\n}\n',
    });
    const fix = toolUse('Edit', { file_path: 'calc.go', old_string: 's += prices[i]', new_string: 's += prices[i] * qty[i]' });
    // The standard `go test ./...`: the package pattern is not a path.
    const yaml = 'test:\n  command: go test ./...\npermissions:\n  allow: ["Bash(go test:*)"]\n';
    const r = await run(repo, yaml, [
      { content: [toolUse('Read', { file_path: 'calc.go' })] },
      { content: [fix] },
      { content: [toolUse('Bash', { command: 'go test ./... -v' })] },
      done,
    ]);
    expect(`${r.evidence.verdict}: ${r.evidence.reason} ${JSON.stringify(r.evidence.gates.filter((g) => !g.passed))}`).toMatch(/^verified/);
    expect(r.evidence.testRuns.find((t) => t.kind === 'final')).toMatchObject({
      runner: 'go',
      command: 'go test ./...',
      fixed: ['example.com/calc > TestTotal'],
      counts: { passed: 1, failed: 0 },
    });
    await expectSandboxed(r);
    expect(freshCheckoutExit(repo, 'proofpr/3-total', 'go test')).toBe(0);
  });
});
