// Cost of the pristine final run (issue 16): on a 10k-file repository, the preparation of the clean
// checkout of the commit (write the commit object, `git worktree add --detach`, link node_modules,
// remove it afterwards) against a plain run of the test command, and the share of a whole scripted
// run's wall time that the clean checkouts add (final run + baseline). Prints a table and writes
// bench/results/verification.json. Needs `npm run build` first. Not a test: figures only.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const FILES = Number(process.env.FILES ?? 10_000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const { withPristineCheckout } = await import('../../build/agent/verification/pristine-checkout.js');
const { snapshotCommit } = await import('../../build/workspace/snapshot-commit.js');
const { runTask } = await import('../../build/run/run-task.js');
const { parseRepoConfig } = await import('../../build/config/repo-config.js');
const { createScriptedModel, text, toolUse } = await import('../../build/model/scripted.js');

const git = (cwd, ...args) => execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.invalid', ...args], { cwd, encoding: 'utf8' });
const work = realpathSync(mkdtempSync(join(tmpdir(), 'proofpr-bench-verif-')));
const repo = join(work, 'repo');
mkdirSync(join(repo, 'test'), { recursive: true });
for (let i = 0; i < FILES; i++) {
  const dir = join(repo, 'lib', `d${i % 100}`);
  if (i < 100) mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `m${i}.js`), `export const v${i} = ${i};\n// ${'x'.repeat(200)}\n`);
}
writeFileSync(join(repo, 'package.json'), JSON.stringify({ name: 'big', type: 'module', scripts: { test: 'node --test' } }));
writeFileSync(join(repo, 'lib', 'calc.js'), 'export const total = (items) => items.reduce((s, i) => s + i.price, 0);\n');
for (let t = 0; t < 20; t++) {
  writeFileSync(join(repo, 'test', `t${t}.test.js`), `import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { total } from '../lib/calc.js';\ntest('case ${t}', () => { assert.strictEqual(total([{ price: ${t}, qty: 1 }]), ${t}); });\n`);
}
writeFileSync(join(repo, 'test', 'qty.test.js'), "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { total } from '../lib/calc.js';\ntest('qty', () => { assert.strictEqual(total([{ price: 2, qty: 3 }]), 6); });\n");
git(repo, 'init', '-q', '-b', 'main');
git(repo, 'add', '-A');
git(repo, 'commit', '-q', '-m', 'base');
const base = git(repo, 'rev-parse', 'HEAD').trim();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = async (fn) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

// A plain test run in the repository itself.
const plain = [];
for (let r = 0; r < ROUNDS; r++) plain.push(await time(() => execFileSync('bash', ['-c', 'node --test >/dev/null 2>&1 || true'], { cwd: repo })));
// The preparation: commit object of the worktree + clean checkout + link + removal (the test itself not run).
const prep = [];
const scratch = mkdtempSync(join(tmpdir(), 'proofpr-bench-scratch-'));
writeFileSync(join(repo, 'lib', 'calc.js'), 'export const total = (items) => items.reduce((s, i) => s + i.price * (i.qty ?? 1), 0);\n');
for (let r = 0; r < ROUNDS; r++) {
  prep.push(
    await time(async () => {
      const snap = await snapshotCommit({ worktree: repo, message: 'bench', identity: { name: 'b', email: 'b@example.invalid' } });
      await withPristineCheckout({ root: repo, sha: snap.sha, scratchDir: scratch }, async () => undefined);
    }),
  );
}
git(repo, 'checkout', '-q', '--', '.');

// A whole scripted run (honest fix, one agent test run, baseline + final run in clean checkouts).
const steps = [
  { content: [toolUse('Read', { file_path: 'lib/calc.js' })] },
  { content: [toolUse('Edit', { file_path: 'lib/calc.js', old_string: 's + i.price, 0', new_string: 's + i.price * (i.qty ?? 1), 0' })] },
  { content: [toolUse('Bash', { command: 'node --test' })] },
  { content: [text('Done.')] },
];
const runStart = performance.now();
const res = await runTask({
  repoDir: repo, branch: 'proofpr/1-bench', task: { kind: 'issue', issue: 1, title: 'qty', body: 'qty ignored' },
  config: parseRepoConfig('test:\n  command: node --test\n'), model: createScriptedModel(steps), modelId: 'claude-sonnet-5-5', mode: 'fix',
  runId: `bench${Date.now()}`, runDir: join(work, 'run'), worktreesDir: join(work, 'worktrees'),
});
const runMs = performance.now() - runStart;
const p = median(prep);
const t = median(plain);
// Two clean checkouts per run: the baseline (base commit) and the final run (the commit to push).
const added = 2 * p;
const out = {
  files: FILES + 22, rounds: ROUNDS, base, verdict: res.evidence.verdict,
  plainTestRunMs: Math.round(t), preparationMs: Math.round(p), ratio: +(p / t).toFixed(2),
  runWallMs: Math.round(runMs), addedByCleanCheckoutsMs: Math.round(added), shareOfRunWall: +(added / runMs).toFixed(3),
};
console.log('| figure | result |\n| --- | --- |');
console.log(`| plain \`node --test\` run (${out.files} files, median of ${ROUNDS}) | ${out.plainTestRunMs} ms |`);
console.log(`| clean checkout of the commit: commit object + worktree add + link + remove (median) | ${out.preparationMs} ms |`);
console.log(`| preparation vs plain test run | ${out.ratio}× |`);
console.log(`| scripted run wall time (verdict ${out.verdict}) | ${out.runWallMs} ms |`);
console.log(`| added by the two clean checkouts (baseline + final run) | ${out.addedByCleanCheckoutsMs} ms = ${(out.shareOfRunWall * 100).toFixed(1)}% of the run |`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/verification.json', `${JSON.stringify(out, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
rmSync(scratch, { recursive: true, force: true });
