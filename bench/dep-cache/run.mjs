// The App's dependency cache (issue 19): on the same repository served from a bare mirror, the
// setup step of the first run (a real `npm ci` of the lock file, then node_modules moved into the
// cache) against the second run's (the cache entry linked in, `npm ci` skipped). The dependencies
// are real packages (typescript, zod, yaml, commander, semver) packed from this project's
// node_modules into tarballs in the repository, so `npm ci` needs no registry. Steps as runTask does
// them: worktree from the mirror, commands resolved, dependency cache step, setup in the sandbox with
// network, afterSetup. Prints a table and writes bench/results/dep-cache.json. Needs `npm run build`.
// Not a test: figures only.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const PACKAGES = ['typescript', 'zod', 'yaml', 'commander', 'semver'];
const { prepareWorkspace } = await import('../../build/run/prepare-workspace.js');
const { resolveRunCommands } = await import('../../build/run/resolve-run-commands.js');
const { dependencyCacheStep } = await import('../../build/run/dependency-cache-step.js');
const { dependencyCacheDir } = await import('../../build/run/dependency-cache-dir.js');
const { runSetup } = await import('../../build/run/run-setup.js');
const { parseRepoConfig } = await import('../../build/config/repo-config.js');

const git = (cwd, ...args) => execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.invalid', ...args], { cwd, encoding: 'utf8' });
const work = realpathSync(mkdtempSync(join(tmpdir(), 'proofpr-bench-depcache-')));
const src = join(work, 'src');
mkdirSync(join(src, 'deps'), { recursive: true });
const deps = {};
for (const p of PACKAGES) {
  const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', join(src, 'deps'), resolve('node_modules', p)], { encoding: 'utf8' }).trim().split('\n').at(-1);
  deps[p] = `file:deps/${out}`;
}
writeFileSync(join(src, 'package.json'), JSON.stringify({ name: 'bench-app', version: '1.0.0', private: true, scripts: { test: 'node --test' }, dependencies: deps }, null, 2));
writeFileSync(join(src, '.npmrc'), 'offline=true\naudit=false\nfund=false\nupdate-notifier=false\n');
writeFileSync(join(src, '.gitignore'), 'node_modules/\n');
mkdirSync(join(src, 'test'));
writeFileSync(join(src, 'test', 'a.test.js'), "require('node:test')('loads', () => require('zod'));\n");
execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--silent'], { cwd: src, env: { ...process.env, npm_config_offline: 'true' } });
git(src, 'init', '-q', '-b', 'main');
git(src, 'add', '-A');
git(src, 'commit', '-q', '-m', 'base');
const mirror = join(work, 'mirror.git');
git(work, 'clone', '-q', '--bare', src, mirror);

let n = 0;
/** The setup part of one App run on the mirror, in ms, and whether setup ran. */
async function setupOnce(home) {
  n++;
  const config = parseRepoConfig('');
  const input = { repoDir: mirror, baseRef: 'main', branch: `proofpr/${n}-bench`, task: { kind: 'issue', title: 'b', body: '' }, config, mode: 'fix', runId: `b${n}`, runDir: join(home, 'runs', `b${n}`), worktreesDir: join(home, 'worktrees') };
  const ws = await prepareWorkspace(input);
  try {
    const t0 = performance.now();
    const cmds = await resolveRunCommands(ws.wt.path, config);
    const step = await dependencyCacheStep(dependencyCacheDir(input, ws), ws.wt.path, ws.wt.gitDir, cmds);
    let ran = false;
    if (step.cmds.setup) {
      const r = await runSetup(step.cmds.setup, 10, { root: ws.wt.path, runTmp: ws.runTmp, sandbox: 'auto', gitDir: ws.wt.gitDir, hidePaths: ws.hidePaths });
      if (!r.ok) throw new Error(r.reason);
      await step.afterSetup?.();
      ran = true;
    }
    return { ms: performance.now() - t0, ran };
  } finally {
    await ws.cleanup(false);
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const firsts = [];
const seconds = [];
for (let r = 0; r < ROUNDS; r++) {
  const home = join(work, `home${r}`);
  const a = await setupOnce(home);
  const b = await setupOnce(home);
  if (!a.ran || b.ran) throw new Error(`round ${r}: the first run should install and the second should not (${a.ran}, ${b.ran})`);
  firsts.push(a.ms);
  seconds.push(b.ms);
}
const first = median(firsts);
const second = median(seconds);
const ratio = second / first;
const rows = [
  ['first run: `npm ci` + move into the cache (median)', `${first.toFixed(0)} ms`],
  ['second run: cache entry linked, `npm ci` skipped (median)', `${second.toFixed(0)} ms`],
  ['second / first', `${ratio.toFixed(3)}×`],
];
console.log(`| dependency cache (${PACKAGES.join(', ')}; ${ROUNDS} rounds) | |\n| --- | --- |`);
for (const [k, v] of rows) console.log(`| ${k} | ${v} |`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/dep-cache.json', JSON.stringify({ packages: PACKAGES, rounds: ROUNDS, firstMs: firsts, secondMs: seconds, ratio, target: 0.05 }, null, 2) + '\n');
rmSync(work, { recursive: true, force: true });
