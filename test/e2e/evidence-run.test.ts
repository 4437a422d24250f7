import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import type { ScriptStep } from '../../src/model/scripted.js';
import type { RunTaskResult } from '../../src/run/run-task-types.js';
import { detectBwrap } from '../../src/workspace/sandbox.js';
import { bash, DONE as done, edit, read, write } from '../kit/e2e-script.js';
import { git, runIssue, tempRepo, type Files, type TempRepo } from './helpers.js';

/**
 * Issue 16 part A: the evidence run is the commit (a clean checkout of the exact commit that is
 * pushed), counts come from the runner's own report, test ids go red → green. Real temp repositories,
 * real runners, the real sandbox (bwrap when it works here), a scripted model.
 */
const makeRepo = (files: Files, nodeModules = false): TempRepo => tempRepo({ files, nodeModules, prefix: 'proofpr-e2e16-' });

const ISSUE = { number: 3, title: 'total() ignores qty', body: 'total([{ price: 2, qty: 3 }]) is 2, expected 6' };

async function run(repo: TempRepo, yaml: string, steps: ScriptStep[]): Promise<RunTaskResult> {
  const runId = `e${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  return (await runIssue(repo, { issue: ISSUE, branch: 'proofpr/3-total', config: parseRepoConfig(yaml), script: steps, runId })).res;
}

/** The pushed branch, checked out fresh (dependencies linked as a user's `npm ci` would provide), runs `command`: its exit code. */
function freshCheckoutExit(repo: TempRepo, branch: string, command: string, nodeModules = false): number {
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
const readPrice = read('src/price.js');
const honest = edit('src/price.js', 's + i.price, 0', 's + i.price * (i.qty ?? 1), 0');
const npmTest = bash('npm test');
/** A total that multiplies by the quantity, as a file the fix could place anywhere. */
const OVERRIDE = 'exports.total = (items) => items.reduce((s, i) => s + i.price * (i.qty ?? 1), 0);\n';

/** Verified, or the verdict's reason and the failed gates in the failure message. */
const expectVerified = (r: RunTaskResult): void =>
  expect(`${r.evidence.verdict}: ${r.evidence.reason} ${JSON.stringify(r.evidence.gates.filter((g) => !g.passed))}`).toMatch(/^verified/);

describe('the evidence run is the commit (jest project)', () => {
  it('evidence - an honest fix is verified from the runner report of a clean checkout of the pushed commit, with the fixed test ids; the branch checked out fresh passes', async () => {
    const repo = makeRepo(JEST_FILES, true);
    const r = await run(repo, JEST_YAML, [readPrice, honest, npmTest, done]);
    expectVerified(r);
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
    const patch = write('override.js', OVERRIDE);
    // Ignored output the fix relies on, written by a repository hook after each Write (as a codegen
    // or build step would).
    const hook = 'mkdir -p local && cp override.js local/override.js';
    const yaml = `${JEST_YAML}hooks:\n  PostToolUse:\n    - matcher: Write\n      command: ${JSON.stringify(hook)}\n`;
    const r = await run(repo, yaml, [readPrice, patch, npmTest, done, done]);
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
    const build = write('local/override.js', OVERRIDE);
    const copy = bash('mkdir -p local/copy && cp local/override.js local/copy/override.js');
    const r = await run(repo, JEST_YAML, [readPrice, build, copy, npmTest, done, done]);
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
    const scratch = write('local/notes.md', 'total() must multiply by qty\n');
    const r = await run(repo, JEST_YAML, [readPrice, scratch, honest, npmTest, done]);
    expectVerified(r);
    expect(r.evidence.denied).toEqual([]);
    expect(git(repo.dir, ['ls-tree', '-r', '--name-only', 'proofpr/3-total']).split('\n')).not.toContain('local/notes.md');
    expect(freshCheckoutExit(repo, 'proofpr/3-total', 'npx jest --ci', true)).toBe(0);
  });

  it('evidence - with final_run off, a printf of a fake summary is not a test run: unverified, tests-ran failed', async () => {
    const repo = makeRepo(JEST_FILES, true);
    const fake = bash("printf 'Tests:       2 passed, 2 total\\n'");
    const chained = bash("npm test || printf 'Tests:       2 passed, 2 total\\n'");
    const r = await run(repo, `${JEST_YAML}  final_run: false\n`, [readPrice, fake, chained, done, done]);
    expect(r.evidence.verdict).toBe('unverified');
    expect(r.evidence.testRuns.filter((t) => t.by === 'agent')).toEqual([]);
    expect(gate(r, 'tests-ran')).toMatchObject({ passed: false });
    expect(summary(r)).toContain('tests-ran');
  });

  it('evidence - a test deselected with .only is not executed at the end: unverified, the failed gates in evidence and summary', async () => {
    const repo = makeRepo(JEST_FILES, true);
    const readTest = read('test/price.test.js');
    const only = edit('test/price.test.js', "test('total of nothing is 0'", "test.only('total of nothing is 0'");
    const r = await run(repo, JEST_YAML, [readTest, only, npmTest, done, done]);
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

/** An honest fix per ecosystem: the project, its one-file fix, the test command, what the final run must show. */
interface Ecosystem {
  title: string;
  files: Files;
  /** The file the fix edits, and the edit. */
  fix: [string, string, string];
  yaml: string;
  /** The command the agent runs. */
  agentRun: string;
  final: Record<string, unknown>;
  /** The command the fresh checkout of the branch must pass. */
  fresh: string;
}

// The system python (python3-pytest): a pyenv shim lives in the home folder, which the sandbox hides.
const PYTEST = '/usr/bin/python3 -m pytest -q';

const ECOSYSTEMS: Ecosystem[] = [
  {
    title: 'evidence - node:test: an honest fix is verified with per-test ids; the branch checked out fresh passes',
    files: {
      'package.json': JSON.stringify({ name: 'calc', type: 'module', scripts: { test: 'node --test' } }),
      'src/calc.js': 'export const total = (items) => items.reduce((s, i) => s + i.price, 0);\n',
      'test/calc.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { total } from '../src/calc.js';\ntest('total multiplies by qty', () => { assert.equal(total([{ price: 2, qty: 3 }]), 6); });\n",
    },
    fix: ['src/calc.js', 's + i.price, 0', 's + i.price * (i.qty ?? 1), 0'],
    yaml: 'test:\n  command: node --test\npermissions:\n  allow: ["Bash(node --test:*)"]\n',
    agentRun: 'node --test',
    final: { source: 'junit', fixed: ['total multiplies by qty'], counts: { passed: 1, failed: 0 } },
    fresh: 'node --test',
  },
  {
    title: 'evidence - pytest: an honest fix is verified from the JUnit report',
    files: {
      'calc.py': 'def total(items):\n    return sum(i["price"] for i in items)\n',
      'tests/test_calc.py':
        'from calc import total\n\ndef test_qty():\n    assert total([{"price": 2, "qty": 3}]) == 6\n\ndef test_empty():\n    assert total([]) == 0\n',
      'pytest.ini': '[pytest]\npythonpath = .\naddopts = -p no:cacheprovider\n',
      '.gitignore': '__pycache__/\n',
    },
    fix: ['calc.py', 'i["price"] for', 'i["price"] * i.get("qty", 1) for'],
    yaml: `test:\n  command: ${PYTEST}\n`,
    agentRun: PYTEST,
    final: { source: 'junit', runner: 'pytest', fixed: ['tests/test_calc.py > test_qty'], counts: { passed: 2, failed: 0 } },
    fresh: PYTEST,
  },
  {
    title: 'evidence - go test: an honest fix is verified from go test -json',
    files: {
      'go.mod': 'module example.com/calc\n\ngo 1.19\n',
      'calc.go':
        'package calc\n\nfunc Total(prices, qty []int) int {\n\ts := 0\n\tfor i := range prices {\n\t\ts += prices[i]\n\t}\n\treturn s\n}\n',
      'calc_test.go':
        'package calc\n\nimport "testing"\n\nfunc TestTotal(t *testing.T) {\n\tif got := Total([]int{2}, []int{3}); got != 6 {\n\t\tt.Fatalf("got %d", got)\n\t}\n}\n',
    },
    fix: ['calc.go', 's += prices[i]', 's += prices[i] * qty[i]'],
    // The standard `go test ./...`: the package pattern is not a path.
    yaml: 'test:\n  command: go test ./...\npermissions:\n  allow: ["Bash(go test:*)"]\n',
    agentRun: 'go test ./... -v',
    final: { runner: 'go', command: 'go test ./...', fixed: ['example.com/calc > TestTotal'], counts: { passed: 1, failed: 0 } },
    fresh: 'go test',
  },
];

describe('the evidence run per ecosystem, through the sandbox', () => {
  it.each(ECOSYSTEMS.map((e) => [e.title, e] as const))('%s', async (_title, e) => {
    const repo = makeRepo(e.files);
    const [file, from, to] = e.fix;
    const r = await run(repo, e.yaml, [read(file), edit(file, from, to), bash(e.agentRun), done]);
    expectVerified(r);
    expect(r.evidence.testRuns.find((t) => t.kind === 'final')).toMatchObject(e.final);
    await expectSandboxed(r);
    expect(freshCheckoutExit(repo, 'proofpr/3-total', e.fresh)).toBe(0);
  });
});
