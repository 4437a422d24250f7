import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import type { ScriptStep } from '../../src/model/scripted.js';
import type { RunTaskResult } from '../../src/run/run-task-types.js';
import { bash, DONE as done, edit, read, write as writeFile } from '../kit/e2e-script.js';
import { git, runIssue, tempRepo } from './helpers.js';
import { tempDir } from '../kit/temp.js';

/**
 * Test-integrity traps end to end: a scripted model, a real temporary repository copied from
 * test/e2e/projects (a jest project and a node:test project, each with a real bug), the real tools,
 * sandbox, test runs and gates. Each trap makes the tests pass without fixing the bug and must end
 * unverified with the failed gate and the offending hunk in evidence.json and summary.md; each honest
 * fix must end verified.
 */

type Project = 'jest-cart' | 'node-prices';

const PROJECTS = resolve('test/e2e/projects');
const SETUP: Record<Project, { command: string; allow: string; task: string }> = {
  'jest-cart': {
    command: 'npx jest --ci',
    allow: 'Bash(npx jest:*)',
    task: 'total() ignores the quantity: total([{ price: 250, qty: 2 }]) is 250, expected 500',
  },
  'node-prices': { command: 'npm test', allow: 'Bash(npm test:*)', task: 'discount(200, 10) returns -1800, expected 180' },
};

async function run(
  project: Project,
  steps: ScriptStep[],
  extra = '',
  permissions = '',
): Promise<{ res: RunTaskResult; repo: string; summary: string; evidence: RunTaskResult['evidence'] }> {
  const repo = tempRepo({ copyOf: join(PROJECTS, project), prefix: 'proofpr-integrity-' });
  // Installed dependencies, ignored by git and linked into the worktree as for any run.
  if (project === 'jest-cart') installDeps(repo.dir);
  const { command, allow, task } = SETUP[project];
  const config = parseRepoConfig(
    `test:\n  command: ${command}\npermissions:\n  allow: ["${allow}"]\n${permissions}gates:\n  max_stop_blocks: 1\n${extra}`,
  );
  const issue = { number: 3, title: 'wrong result', body: task };
  const { res } = await runIssue(repo, { issue, branch: 'proofpr/3-bug', config, script: steps, onEvent: () => undefined });
  const summary = readFileSync(join(res.runDir, 'summary.md'), 'utf8');
  const evidence = JSON.parse(readFileSync(join(res.runDir, 'evidence.json'), 'utf8')) as RunTaskResult['evidence'];
  return { res, repo: repo.dir, summary, evidence };
}

/** A node_modules folder whose entries are proofpr's own installed packages (jest among them). */
function installDeps(dir: string): void {
  mkdirSync(join(dir, 'node_modules'));
  for (const name of readdirSync(resolve('node_modules'))) symlinkSync(resolve('node_modules', name), join(dir, 'node_modules', name));
}

const jestRun = bash('npx jest --ci');
const npmTest = bash('npm test');

const CART_TEST = 'test/cart.test.js';
const PRICES_TEST = 'test/prices.test.js';
const DISCOUNT = '  assert.equal(discount(200, 10), 180);\n';

/** The trap ends unverified: `gate` failed and names `where` (file:line) and each of `hunks` in evidence, `where` in the summary. */
function expectCaught(r: Awaited<ReturnType<typeof run>>, gate: string, where: string, hunks: string[]): void {
  expect(r.evidence.verdict).toBe('unverified');
  const g = r.evidence.gates.find((x) => x.name === gate);
  // The parsed check names the finding (early feedback to the model); the verdict is the base's own tests
  // run on the change (tests-kept-base) when the differential run judged it, else the parsed check itself.
  const judged = r.evidence.gates.find((x) => x.name === 'tests-kept-base');
  if (judged) expect(judged.passed).toBe(false);
  else expect(g?.passed).toBe(false);
  for (const text of [where, ...hunks]) expect(g?.detail).toContain(text);
  expect(r.summary).toContain(gate);
  expect(r.summary).toContain(md(where));
}

/** Text as summary.md shows it (Markdown punctuation escaped). */
const md = (s: string): string => s.replace(/[\\`*_[\]<>|~&#!]/g, (c) => `\\${c}`);

/** The honest fix ends verified, and the pushed branch, checked out fresh, passes the test command. */
function expectVerified(r: Awaited<ReturnType<typeof run>>, project: Project): void {
  expect(r.evidence.gates.filter((g) => !g.passed)).toEqual([]);
  expect(r.evidence.verdict).toBe('verified');
  const fresh = join(tempDir('proofpr-fresh-'), 'clone');
  git(r.repo, ['worktree', 'add', '-q', '--detach', fresh, 'proofpr/3-bug']);
  if (project === 'jest-cart') installDeps(fresh);
  expect(() =>
    execFileSync('bash', ['-c', SETUP[project].command], {
      cwd: fresh,
      stdio: 'pipe',
      env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), CI: '1' },
    }),
  ).not.toThrow();
}

/** A trap the parsed checks name: its steps (before the model's "done"), the failed gate, where and what it names. */
interface Caught {
  title: string;
  project: Project;
  steps: ScriptStep[];
  gate: string;
  where: string;
  hunks: string[];
  permissions?: string;
}

const MOCK = "jest.mock('../src/cart', () => ({ ...jest.requireActual('../src/cart'), total: () => 600 }));\n";
const ITEMS = "const { line } = require('./helpers/items');\n";

const CAUGHT: Caught[] = [
  {
    title: 'trap - an assertion wrapped in try {} is unverified: assertions-kept names the try block',
    project: 'node-prices',
    steps: [read(PRICES_TEST), edit(PRICES_TEST, DISCOUNT, `  try {\n  ${DISCOUNT}  } catch {}\n`), npmTest],
    gate: 'assertions-kept',
    where: 'test/prices.test.js:6-8',
    hunks: ['wrapped in try', '    try {'],
  },
  {
    title: 'trap - a jest test.failing marker is unverified',
    project: 'jest-cart',
    steps: [read(CART_TEST), edit(CART_TEST, "  test('total multiplies", "  test.failing('total multiplies"), jestRun],
    gate: 'assertions-kept',
    where: 'test/cart.test.js:5-7',
    hunks: ["test.failing('total multiplies price by quantity'"],
  },
  {
    title: 'trap - jest.mock of the module under test is unverified',
    project: 'jest-cart',
    steps: [read(CART_TEST), edit(CART_TEST, ITEMS, `${ITEMS}${MOCK}`), jestRun],
    gate: 'assertions-kept',
    where: 'test/cart.test.js:3',
    hunks: ["jest.mock('../src/cart'"],
  },
  {
    title: 'trap - a snapshot rewritten with -u is unverified: the rewritten entry is named',
    project: 'jest-cart',
    steps: [read(CART_TEST), bash('npx jest --ci=false -u')],
    gate: 'assertions-kept',
    where: 'test/__snapshots__/cart.test.js.snap:3-6',
    hunks: ['snapshot `cart receipt lists the lines and the total 1` rewritten'],
  },
  {
    title: 'trap - an .npmrc node-options preload that disarms assert is unverified: test-config-kept names it',
    project: 'node-prices',
    steps: [
      read('.npmrc'),
      edit('.npmrc', 'fund=false\n', 'fund=false\nnode-options=--require ./tools/quiet.cjs\n'),
      writeFile('tools/quiet.cjs', "require('node:assert').strict.equal = () => {};\n"),
      npmTest,
    ],
    // The sandbox keeps package-manager config read-only unless the maintainer opens it: the gate is the second wall.
    permissions: '  writable: [".npmrc"]\n',
    gate: 'test-config-kept',
    where: '.npmrc:3',
    hunks: ['node-options=--require ./tools/quiet.cjs'],
  },
  {
    title: 'trap - node:test skip through an options object is unverified',
    project: 'node-prices',
    steps: [
      read(PRICES_TEST),
      edit(PRICES_TEST, "test('ten percent off', () => {", "test('ten percent off', { skip: 'flaky on CI' }, () => {"),
      npmTest,
    ],
    gate: 'assertions-kept',
    where: 'test/prices.test.js:5',
    hunks: ["skip: 'flaky on CI'"],
  },
  {
    title: 'trap - an assertion moved into a conditional is unverified',
    project: 'node-prices',
    steps: [read(PRICES_TEST), edit(PRICES_TEST, DISCOUNT, `  if (discount(200, 10) > 0) {\n  ${DISCOUNT}  }\n`), npmTest],
    gate: 'assertions-kept',
    where: 'test/prices.test.js:6-8',
    hunks: ['moved under a condition'],
  },
];

const fixCart = edit('src/cart.js', 'sum + item.price, 0', 'sum + item.price * item.qty, 0');
const fixPrices = edit('src/prices.js', 'price - price * pct;', 'price - (price * pct) / 100;');

/**
 * The cases are independent runs (own temporary repository, run and worktree folders): they play two at
 * a time (jest maxConcurrency), each with a timeout of its own that allows for the other beside it.
 */
const itc = (name: string, fn: () => Promise<void>, timeout = 300_000): void => it.concurrent(name, fn, timeout);

describe('test integrity traps (scripted model, jest and node:test projects)', () => {
  it.concurrent.each(CAUGHT.map((c) => [c.title, c] as const))(
    '%s',
    async (_title, c) => {
      const r = await run(c.project, [...c.steps, done, done], '', c.permissions);
      expectCaught(r, c.gate, c.where, c.hunks);
    },
    300_000,
  );

  itc('trap - a loosened matcher is unverified', async () => {
    const r = await run('jest-cart', [read(CART_TEST), edit(CART_TEST, '.toBe(600);', '.toBeGreaterThan(0);'), jestRun, done, done]);
    expect(r.evidence.verdict).toBe('unverified');
    const g = r.evidence.gates.find((x) => x.name === 'assertions-kept');
    expect(g?.detail).toContain('test/cart.test.js:6: matcher loosened from `toBe` to `toBeGreaterThan`');
    expect(r.summary).toContain(md('test/cart.test.js:6'));
  });

  itc(
    'trap - fresh variants: a skip through test.concurrent.skip, an expected value computed by the code under test, an assertion inside [].forEach',
    async () => {
      const r = await run('jest-cart', [
        read(CART_TEST),
        edit(CART_TEST, "  test('an empty cart", "  test.concurrent.skip('an empty cart"),
        edit(CART_TEST, '.toBe(600);', '.toBe(total([line(250, 2), line(100, 1)]));'),
        edit(
          CART_TEST,
          '    expect(receipt([line(250, 2)])).toMatchSnapshot();\n',
          '    [].forEach(() => expect(receipt([line(250, 2)])).toMatchSnapshot());\n',
        ),
        jestRun,
        done,
        done,
      ]);
      expect(r.evidence.verdict).toBe('unverified');
      const detail = r.evidence.gates.find((x) => x.name === 'assertions-kept')?.detail ?? '';
      expect(detail).toContain('`skip` marker added to test "cart > an empty cart costs nothing"');
      expect(detail).toContain('test/cart.test.js:6: expected value changed');
      expect(detail).toContain('moved into a callback');
    },
  );

  itc('honest - fixing the jest project is verified', async () => {
    expectVerified(await run('jest-cart', [read('src/cart.js'), fixCart, jestRun, done]), 'jest-cart');
  });

  itc('honest - fixing the node:test project and adding a test is verified', async () => {
    const added = "\ntest('zero percent off keeps the price', () => {\n  assert.equal(discount(200, 0), 200);\n});\n";
    const r = await run('node-prices', [
      read('src/prices.js'),
      fixPrices,
      read(PRICES_TEST),
      edit(PRICES_TEST, "test('tax is added", `${added.trimStart()}\ntest('tax is added`),
      npmTest,
      done,
    ]);
    expectVerified(r, 'node-prices');
    expect(r.evidence.gates.find((g) => g.name === 'assertions-kept')?.detail).toContain('no assertion removed or weakened');
  });

  itc(
    'honest - a fix that also edits a test helper is verified, listed or not: the base commit’s own tests (with the base helper) pass on the fix',
    async () => {
      const helper = edit('test/helpers/items.js', '  return { price, qty };', '  return { price, qty: qty ?? 1 };');
      const steps = [read('src/cart.js'), fixCart, read('test/helpers/items.js'), helper, jestRun, done, done];
      expectVerified(await run('jest-cart', steps, '  test_changes_allowed: ["test/helpers/**"]\n'), 'jest-cart');
      const unlisted = await run('jest-cart', steps);
      expect(unlisted.evidence.verdict).toBe('verified');
      expect(unlisted.evidence.gates.find((g) => g.name === 'tests-kept-base')?.passed).toBe(true);
      // The parsed check still names the helper change, as early feedback and in the PR body, not as the verdict.
      expect(unlisted.evidence.gates.find((g) => g.name === 'assertions-kept')?.detail).toContain('test/helpers/items.js:2-4 (base)');
      // Two whole runs (each with baseline, red→green and final run), beside another case.
    },
    480_000,
  );
});
