/**
 * The real-repository benchmark (see bench/real/README.md). For every case of bench/real/cases.json:
 * materialize it, run the runner directly once on the fixed tree (its own count), then two passes of the
 * built CLI (`proofpr run`, sandbox as the machine allows) on a fresh clone of the parent bundle with a
 * replay model behind ANTHROPIC_BASE_URL: the upstream fix (source + test part, expected verified) and the
 * upstream test change alone (expected unverified). Prints a table and writes bench/results/real.json.
 * `--verify`: `proofpr verify` (no model) on each case's gold fix and its test-only half instead (issue 40).
 * Usage: bench.mjs ROOT [case-id ...]
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeChanges } from '../../src/backtest/file-changes.js';
import { replayReply, replaySteps, replayTurnBudget, type FileChange } from '../../src/backtest/replay.js';
import { startReplayServer } from '../../src/backtest/replay-server.js';
import { runPass, type PassResult } from '../../src/backtest/run-pass.js';
import { directCount, readManifest, readManifests, type BenchCase } from './manifest.js';
import { materialize, type Materialized } from './materialize.js';

const root = process.argv[2] ?? process.cwd();
const qualify = process.argv.includes('--qualify');
const only = process.argv.slice(3).filter((a) => !a.startsWith('--'));
const cacheRoot = join(root, 'bench', '.cache', 'real');
/** The CLI under test: this checkout's build, or another build (PROOFPR_BENCH_CLI, e.g. a frozen copy for a first try). */
const bin = process.env.PROOFPR_BENCH_CLI ?? join(root, 'bin', 'proofpr.js');

function sh(cwd: string, command: string, env: NodeJS.ProcessEnv = process.env): { code: number; out: string; ms: number } {
  const t = performance.now();
  const r = spawnSync('bash', ['-c', command], { cwd, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return { code: r.status ?? 1, out: `${r.stdout ?? ''}${r.stderr ?? ''}`, ms: performance.now() - t };
}

/** PATH with corepack's pnpm and yarn shims (installed once into the cache) ahead of the machine's own. */
function toolPath(): string {
  const shims = join(cacheRoot, 'bin');
  if (!existsSync(join(shims, 'pnpm'))) {
    mkdirSync(shims, { recursive: true });
    const r = sh(root, `corepack enable --install-directory '${shims}' pnpm yarn`);
    if (r.code !== 0) process.stderr.write(`corepack enable failed (pnpm and yarn cases need it):\n${r.out}\n`);
  }
  return `${shims}:${process.env.PATH ?? ''}`;
}
const PATH = toolPath();
const toolEnv: NodeJS.ProcessEnv = { ...process.env, PATH, COREPACK_ENABLE_DOWNLOAD_PROMPT: '0', COREPACK_ENABLE_STRICT: '0' };

/** Where a case's dependencies are: hand-listed npm packages (`npm`) or the project's own install (`install`) in a checkout of the parent. */
type Deps = { kind: 'npm'; nodeModules: string } | { kind: 'install'; tree: string };

/** node_modules for the case's npm packages, installed once into the cache. */
function ensureNpm(c: BenchCase): Deps | undefined {
  if (!c.npm) return undefined;
  const dir = join(cacheRoot, 'deps', c.id);
  const key = JSON.stringify(c.npm);
  const stamp = join(dir, '.installed');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === key) return { kind: 'npm', nodeModules: join(dir, 'node_modules') };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `bench-deps-${c.id}`, private: true, dependencies: c.npm }, null, 2));
  const r = sh(dir, 'npm install --no-audit --no-fund --loglevel=error');
  if (r.code !== 0) throw new Error(`${c.id}: npm install of ${key} failed:\n${r.out}`);
  writeFileSync(stamp, key);
  return { kind: 'npm', nodeModules: join(dir, 'node_modules') };
}

/**
 * The project's own install (`install`), once per manifest: in a checkout of the parent (its manifests, its
 * lockfile, its package manager). Cases of one repository whose parents have the same manifests and lockfile
 * share the install (deps/<name>-<hash of those files' blob ids>).
 */
function ensureInstall(c: BenchCase, m: Materialized): Deps | undefined {
  if (!c.install) return ensureNpm(c);
  const tmp = join(cacheRoot, 'deps', `.clone-${c.id}`);
  rmSync(tmp, { recursive: true, force: true });
  execFileSync('git', ['clone', '-q', '--branch', 'main', m.bundle, tmp], { stdio: 'ignore' });
  const manifests = execFileSync('git', ['ls-files', '-s'], { cwd: tmp, encoding: 'utf8' })
    .split('\n')
    .filter((l) =>
      /(^|\/|\t)(package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|pnpm-workspace\.yaml|\.npmrc|\.yarnrc(\.yml)?)$/.test(
        l,
      ),
    )
    .join('\n');
  const key = createHash('sha256').update(`${c.install}\n${manifests}`).digest('hex').slice(0, 12);
  const dir = join(cacheRoot, 'deps', `${c.repo.split('/')[1]!}-${key}`);
  const tree = join(dir, 'tree');
  const stamp = join(dir, '.installed');
  if (existsSync(stamp)) {
    rmSync(tmp, { recursive: true, force: true });
    return { kind: 'install', tree };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  renameSync(tmp, tree);
  const flags = c.install.startsWith('npm') ? ' --no-audit --no-fund --loglevel=error' : '';
  const r = sh(tree, `${c.install}${flags}`, { ...toolEnv, CI: 'true' });
  writeFileSync(join(dir, 'install.log'), r.out);
  if (r.code !== 0)
    throw new Error(`${c.id}: \`${c.install}\` failed (exit ${r.code}), see ${join(dir, 'install.log')}:\n${r.out.slice(-3000)}`);
  writeFileSync(stamp, `${c.install} ${c.id}\n`);
  return { kind: 'install', tree };
}

/** Links the installed dependencies into a checkout, as after the user's own install: every node_modules folder (hard links, cheap) and Yarn's PnP files. */
function linkDeps(deps: Deps | undefined, into: string): void {
  if (!deps) return;
  if (deps.kind === 'npm') {
    execFileSync('cp', ['-al', deps.nodeModules, join(into, 'node_modules')]);
    return;
  }
  const found = execFileSync('find', ['.', '-name', '.git', '-prune', '-o', '-name', 'node_modules', '-type', 'd', '-print', '-prune'], {
    cwd: deps.tree,
    encoding: 'utf8',
  });
  const extra = ['.pnp.cjs', '.pnp.loader.mjs', '.yarn/install-state.gz', '.yarn/unplugged'].filter((p) => existsSync(join(deps.tree, p)));
  for (const rel of [...found.split('\n').filter(Boolean), ...extra]) {
    const dest = join(into, rel);
    mkdirSync(join(dest, '..'), { recursive: true });
    execFileSync('cp', ['-al', join(deps.tree, rel), dest]);
  }
}

function cloneBase(m: Materialized, into: string, deps: Deps | undefined): string {
  execFileSync('git', ['clone', '-q', '--branch', 'main', m.bundle, into], { stdio: 'ignore' });
  linkDeps(deps, into);
  return into;
}

const write = (dir: string, changes: readonly FileChange[]): void => writeChanges(dir, changes);

async function cliRun(
  c: BenchCase,
  m: Materialized,
  changes: readonly FileChange[],
  deps: Deps | undefined,
  label: string,
): Promise<PassResult> {
  const work = realpathSync(mkdtempSync(join(tmpdir(), `proofpr-real-${c.id}-`)));
  try {
    const repo = cloneBase(m, join(work, c.repo.split('/')[1]!), deps);
    const steps = replaySteps(changes, c.agentTest);
    const server = await startReplayServer((n) => replayReply(steps, n, `Applied the change for: ${c.title}`));
    let config: string | undefined;
    if (c.config) {
      config = join(work, 'proofpr.yml');
      writeFileSync(config, c.config);
    }
    const env = {
      PATH,
      HOME: process.env.HOME,
      COREPACK_ENABLE_DOWNLOAD_PROMPT: '0',
      COREPACK_ENABLE_STRICT: '0',
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'sk-ant-bench-0000000000',
      PROOFPR_HOME: join(work, 'home'),
    };
    let stderr = '';
    try {
      const extraArgs = ['--max-turns', String(replayTurnBudget(steps))];
      return await runPass({
        bin,
        repo,
        prompt: c.title,
        runDir: join(work, 'run'),
        env,
        extraArgs,
        ...(config ? { config } : {}),
        onStderr: (t) => (stderr += t),
      });
    } catch (e) {
      throw new Error(`${c.id} ${label}: ${(e as Error).message}`);
    } finally {
      await server.close();
      if (process.env.BENCH_VERBOSE) process.stderr.write(`--- ${c.id} ${label}\n${stderr}\n`);
    }
  } finally {
    if (process.env.BENCH_KEEP) process.stderr.write(`  kept ${work}\n`);
    else rmSync(work, { recursive: true, force: true });
  }
}

/** One `proofpr verify` of a case's change (issue 40): no model, the change a commit on a branch of the parent's clone. */
type VerifyPass = { verdict: string; exitCode: number; reason: string; failedGates: string[]; wallMs: number };

/** Commits `changes` on `branch` from `main` in `repo` (only the changed paths: the linked dependencies stay out), then back to main. */
function commitChange(repo: string, branch: string, changes: readonly FileChange[]): void {
  const g = (args: string[]) =>
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
      cwd: repo,
      stdio: 'ignore',
    });
  g(['checkout', '-q', '-b', branch, 'main']);
  write(repo, changes);
  g(['add', '-A', '--', ...changes.map((c) => c.path)]);
  g(['commit', '-q', '--no-verify', '-m', `${branch}`]);
  g(['checkout', '-q', 'main']);
}

/**
 * `--verify`: the built CLI's `proofpr verify --repo CLONE --base main --head <branch>` on the gold fix
 * (source and test part) and on its test-only half, each a commit of a fresh clone of the parent bundle
 * with the case's dependencies linked as for `run`; no model server, no key in the environment.
 */
async function verifyPasses(c: BenchCase, m: Materialized, deps: Deps | undefined): Promise<{ fix: VerifyPass; testOnly: VerifyPass }> {
  const work = realpathSync(mkdtempSync(join(tmpdir(), `proofpr-real-verify-${c.id}-`)));
  try {
    const repo = cloneBase(m, join(work, c.repo.split('/')[1]!), deps);
    commitChange(repo, 'fix', [...m.source, ...m.test]);
    commitChange(repo, 'test-only', m.test);
    let config: string[] = [];
    if (c.config) {
      writeFileSync(join(work, 'proofpr.yml'), c.config);
      config = ['--config', join(work, 'proofpr.yml')];
    }
    const env = {
      PATH,
      HOME: process.env.HOME,
      COREPACK_ENABLE_DOWNLOAD_PROMPT: '0',
      COREPACK_ENABLE_STRICT: '0',
      PROOFPR_HOME: join(work, 'home'),
    };
    const pass = (head: string): VerifyPass => {
      const out = join(work, `run-${head}`);
      const t = performance.now();
      const r = spawnSync(process.execPath, [bin, 'verify', '--repo', repo, '--base', 'main', '--head', head, '--out', out, ...config], {
        env,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      const wallMs = performance.now() - t;
      if (process.env.BENCH_VERBOSE)
        process.stderr.write(`--- ${c.id} verify ${head} (exit ${r.status})\n${r.stdout}${r.stderr.slice(-3000)}\n`);
      const file = join(out, 'evidence.json');
      if (!existsSync(file)) return { verdict: 'error', exitCode: r.status ?? 1, reason: r.stderr.slice(-500), failedGates: [], wallMs };
      const ev = JSON.parse(readFileSync(file, 'utf8')) as {
        verdict: string;
        reason: string;
        gates: Array<{ name: string; passed: boolean }>;
      };
      const failedGates = ev.gates.filter((x) => !x.passed).map((x) => x.name);
      return { verdict: ev.verdict, exitCode: r.status ?? 1, reason: ev.reason, failedGates, wallMs };
    };
    return { fix: pass('fix'), testOnly: pass('test-only') };
  } finally {
    if (process.env.BENCH_KEEP) process.stderr.write(`  kept ${work}\n`);
    else rmSync(work, { recursive: true, force: true });
  }
}

/** The gold replays' verdicts of a case (`proofpr run` with the replay model): the latest row recorded for it in bench/results/real.json. */
function goldOf(id: string): { fix: string; testOnly: string; at?: string } | undefined {
  const all = readResults();
  const rowsOf = (v: unknown): Array<Row & { at?: string }> => {
    const o = v as { cases?: unknown; rows?: unknown } | undefined;
    return [...(Array.isArray(o?.cases) ? o.cases : []), ...(Array.isArray(o?.rows) ? o.rows : [])] as Array<Row & { at?: string }>;
  };
  const found = [...rowsOf(all), ...Object.entries(all).flatMap(([k, v]) => (k === 'firstTry' || k === 'verify' ? [] : rowsOf(v)))]
    .filter((r) => r.id === id && r.fix_ && r.testOnly)
    .sort((a, b) => (a.at ?? '').localeCompare(b.at ?? ''));
  const last = found[found.length - 1];
  return last && { fix: last.fix_.verdict, testOnly: last.testOnly.verdict, ...(last.at ? { at: last.at } : {}) };
}

type VerifyRow = {
  id: string;
  repo: string;
  runner: string;
  gold?: { fix: string; testOnly: string };
  fix: VerifyPass;
  testOnly: VerifyPass;
};

/** Records the `--verify` rows under the key `verify` (a case run again replaces its row). */
function recordVerify(rs: readonly VerifyRow[]): void {
  const previous = readResults();
  const old = (previous.verify as { cases?: VerifyRow[] } | undefined)?.cases ?? [];
  const fresh = rs.map((r) => ({ ...r, product, at: new Date().toISOString() }));
  const all = [...old.filter((o) => !fresh.some((f) => f.id === o.id)), ...fresh];
  const same = all.filter((r) => r.gold && r.gold.fix === r.fix.verdict && r.gold.testOnly === r.testOnly.verdict).length;
  const summary = {
    cases: all.length,
    sameAsGold: `${same}/${all.filter((r) => r.gold).length}`,
    fixVerified: `${all.filter((r) => r.fix.verdict === 'verified').length}/${all.length}`,
    testOnlyUnverified: `${all.filter((r) => r.testOnly.verdict === 'unverified').length}/${all.length}`,
    wallMs: Math.round(all.reduce((s, r) => s + r.fix.wallMs + r.testOnly.wallMs, 0)),
  };
  writeResults({ ...previous, verify: { updatedAt: new Date().toISOString(), summary, cases: all } });
}

/** The runner itself on the fixed tree: its own count and its plain wall time. */
/** Where the runner's own output on a case's fixed tree is kept (per direct command). */
const directCacheFile = (c: BenchCase, dir: string): string =>
  join(dir, `direct-${createHash('sha256').update(c.direct.command).digest('hex').slice(0, 12)}.json`);

function direct(c: BenchCase, m: Materialized, deps: Deps | undefined): { count?: number; ms: number; code: number } {
  // The runner's output on the fixed tree is kept in the case's cache (per command): a case run again, or a
  // changed count rule, reads it instead of running the suite again (BENCH_DIRECT_FRESH=1 runs it anyway).
  const cached = directCacheFile(c, m.dir);
  let r: { code: number; out: string; ms: number };
  if (existsSync(cached) && !process.env.BENCH_DIRECT_FRESH) r = JSON.parse(readFileSync(cached, 'utf8')) as typeof r;
  else {
    const work = realpathSync(mkdtempSync(join(tmpdir(), `proofpr-real-direct-${c.id}-`)));
    try {
      const repo = cloneBase(m, join(work, 'repo'), deps);
      write(repo, [...m.source, ...m.test]);
      const env: NodeJS.ProcessEnv = { ...toolEnv, NO_COLOR: '1' };
      delete env.FORCE_COLOR;
      r = sh(repo, c.direct.command, env);
      writeFileSync(cached, JSON.stringify(r));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const count = directCount(r.out.replace(/\x1b\[[0-9;]*m/g, ''), c.direct.count);
  if (process.env.BENCH_VERBOSE) process.stderr.write(`--- ${c.id} direct (exit ${r.code})\n${r.out.slice(-2000)}\n`);
  return { ...(count !== undefined ? { count } : {}), ms: r.ms, code: r.code };
}

/**
 * The case's own qualification, without the product: the agent's test command on the test-only tree (must
 * fail) and on the fixed tree (must pass), as the selection rule of bench/real/README.md asks.
 */
function qualifyCase(c: BenchCase, m: Materialized, deps: Deps | undefined): { testOnly: number; fix: number } {
  const codes = { testOnly: 1, fix: 1 };
  for (const [label, changes] of [
    ['testOnly', m.test],
    ['fix', [...m.source, ...m.test]],
  ] as const) {
    const work = realpathSync(mkdtempSync(join(tmpdir(), `proofpr-real-qualify-${c.id}-`)));
    try {
      const repo = cloneBase(m, join(work, 'repo'), deps);
      write(repo, changes);
      const r = sh(repo, c.agentTest, { ...toolEnv, CI: 'true' });
      writeFileSync(join(m.dir, `qualify-${label}.log`), r.out);
      codes[label] = r.code;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  return codes;
}

/** The install a user runs after cloning, read from the lockfile (`npm install` without one); undefined without a package.json. */
function projectInstall(repo: string): string | undefined {
  if (!existsSync(join(repo, 'package.json'))) return undefined;
  if (existsSync(join(repo, 'pnpm-lock.yaml'))) return 'pnpm install --frozen-lockfile';
  if (existsSync(join(repo, 'yarn.lock'))) return 'yarn install --frozen-lockfile';
  if (existsSync(join(repo, 'package-lock.json'))) return 'npm ci --no-audit --no-fund --loglevel=error';
  return 'npm install --no-audit --no-fund --loglevel=error';
}

/**
 * `--setup`: per repository (its first case), a fresh clone of the parent with the project's own install
 * (the one in the lockfile when the case hand-lists its packages), then
 * `proofpr init` and `proofpr doctor` as a new user would run them (no hand edit, the case's own config
 * unused); the replay server answers doctor's count_tokens. Ready means doctor exits 0 and says "ready.".
 */
async function setupCase(c: BenchCase, m: Materialized, deps: Deps | undefined): Promise<SetupRow> {
  const work = realpathSync(mkdtempSync(join(tmpdir(), `proofpr-real-setup-${c.id}-`)));
  const server = await startReplayServer(() => ({ content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn' }));
  try {
    // Hand-listed packages (`npm`) are the bench's shortcut, not a user's install: the clone gets the project's own.
    const repo = cloneBase(m, join(work, c.repo.split('/')[1]!), deps?.kind === 'npm' ? undefined : deps);
    const own = deps?.kind === 'npm' ? projectInstall(repo) : undefined;
    // A fresh machine's corepack cache (nothing a case fetched before, nothing left behind in the machine's).
    const corepackHome = join(work, 'corepack');
    if (own) {
      const r = sh(repo, own, { ...toolEnv, CI: 'true', COREPACK_HOME: corepackHome });
      if (r.code !== 0) process.stderr.write(`  ${own} failed (exit ${r.code}):\n${r.out.slice(-1500)}\n`);
    }
    const env = {
      ...toolEnv,
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'sk-ant-bench-0000000000',
      PROOFPR_HOME: join(work, 'home'),
      COREPACK_HOME: corepackHome,
    };
    // Asynchronous: the replay server in this process answers doctor's model check meanwhile.
    const run = (args: string[]) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
        const child = spawn(process.execPath, [bin, ...args], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('close', (status) => done({ status, stdout, stderr }));
      });
    const init = await run(['init', '--repo', repo]);
    const config = existsSync(join(repo, '.github', 'proofpr.yml')) ? readFileSync(join(repo, '.github', 'proofpr.yml'), 'utf8') : '';
    const command = /^\s*command:\s*(.+)$/m.exec(config.split(/^setup:/m)[0] ?? '')?.[1]?.trim();
    const doctor = await run(['doctor', '--repo', repo]);
    const out = `${doctor.stdout ?? ''}${doctor.stderr ?? ''}`;
    const ready = doctor.status === 0 && /^ready\.$/m.test(out);
    const why = out
      .split('\n')
      .filter((l) => /^(FAIL|WARN)\b|^\s+fix:/.test(l))
      .join('\n')
      .slice(0, 2000);
    if (process.env.BENCH_VERBOSE)
      process.stderr.write(
        `--- ${c.repo} init (exit ${init.status ?? '?'})\n${config}\n--- doctor (exit ${doctor.status ?? '?'})\n${out}\n`,
      );
    return {
      repo: c.repo,
      case: c.id,
      // A fix doctor names that the machine's environment applies (e.g. COREPACK_INTEGRITY_KEYS=0): said in the row.
      ...(machineFix ? { machineFix } : {}),
      initExit: init.status ?? 1,
      ...(command ? { testCommand: command } : {}),
      doctorExit: doctor.status ?? 1,
      ready,
      ...(ready ? {} : { why: why || out.slice(-1500) }),
    };
  } finally {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
}

type SetupRow = {
  repo: string;
  case: string;
  machineFix?: string;
  /** The repository's outcome before the machine fix (a run with machineFix keeps the one without). */
  withoutFix?: { ready: boolean; why?: string; product?: string; at?: string };
  initExit: number;
  testCommand?: string;
  doctorExit: number;
  ready: boolean;
  why?: string;
};
/** The corepack settings of the bench's environment that a doctor fix names (none by default). */
const machineFix = ['COREPACK_INTEGRITY_KEYS'].flatMap((k) => (process.env[k] !== undefined ? [`${k}=${process.env[k]}`] : [])).join(' ');

type Row = {
  id: string;
  repo: string;
  fix: string;
  runner: string;
  shape?: string;
  direct: ReturnType<typeof direct>;
  fix_: PassResult;
  testOnly: PassResult;
};

// PROOFPR_BENCH_REAL_CASES: another manifest file (candidates being qualified), instead of bench/real/cases*.json.
const manifest = process.env.PROOFPR_BENCH_REAL_CASES
  ? readManifest(process.env.PROOFPR_BENCH_REAL_CASES)
  : readManifests(join(root, 'bench', 'real'));
// Ids given: those cases, in the order given.
const cases = only.length === 0 ? manifest.cases : only.flatMap((id) => manifest.cases.filter((c) => c.id === id));

const pct = (a: number, b: number) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(0)}%`);
const secs = (x: number) => `${(x / 1000).toFixed(1)} s`;
const over = (p: PassResult) => (p.wallMs - p.testMs) / p.testMs;
/** The figures over `rs`: verified fixes, unverified test-only changes, exact counts, harness overhead. */
function summarize(rs: readonly Row[]) {
  const verified = rs.filter((r) => r.fix_.verdict === 'verified').length;
  const refused = rs.filter((r) => r.testOnly.verdict === 'unverified').length;
  // Refused with a counted failing harness run of the final tree (the maintainer sees what fails). Rows
  // recorded before `failed` was kept count `total − passed` (skipped tests would count as failures).
  const failedOf = (p: PassResult) => p.failed ?? (p.total !== undefined && p.passed !== undefined ? p.total - p.passed : 0);
  const counted = rs.filter((r) => r.testOnly.verdict === 'unverified' && failedOf(r.testOnly) > 0).length;
  const exact = rs.filter((r) => r.fix_.total !== undefined && r.fix_.total === r.direct.count).length;
  const all = rs.flatMap((r) => [r.fix_, r.testOnly]);
  const wall = all.reduce((s, p) => s + p.wallMs, 0);
  const test = all.reduce((s, p) => s + p.testMs, 0);
  const overheads = rs.map((r) => over(r.fix_)).sort((a, b) => a - b);
  return {
    cases: rs.length,
    repositories: new Set(rs.map((r) => r.repo)).size,
    runners: [...new Set(rs.map((r) => r.runner))].length,
    verifiedFixes: `${verified}/${rs.length}`,
    verifiedRate: rs.length ? verified / rs.length : 0,
    unverifiedTestOnly: `${refused}/${rs.length}`,
    unverifiedRate: rs.length ? refused / rs.length : 0,
    unverifiedCountedFailing: `${counted}/${rs.length}`,
    countsExact: `${exact}/${rs.length}`,
    // Runs the product stopped before the agent (its baseline unusable): an unverified test-only run among them is no refusal on the evidence.
    notReady: {
      fix: rs.filter((r) => r.fix_.reason.startsWith('not ready')).length,
      testOnly: rs.filter((r) => r.testOnly.reason.startsWith('not ready')).length,
    },
    overheadAll: test ? +((wall - test) / test).toFixed(2) : 0,
    overheadFixMedian: +(overheads[Math.floor(overheads.length / 2)] ?? 0).toFixed(2),
    // The differential runs' share of the runs' wall time (issue: the maintainer's tests judge the code).
    // The kept run (the commit's source under the base's tests) and the new tests' red run, over the passes' whole wall time.
    differentialShare: wall ? +(all.reduce((s, p) => s + (p.keptMs ?? 0) + (p.redMs ?? 0), 0) / wall).toFixed(3) : 0,
    sandbox: [...new Set(all.map((p) => p.sandbox ?? 'unknown'))].join(', '),
    cli: process.env.PROOFPR_BENCH_CLI ? 'PROOFPR_BENCH_CLI' : 'this checkout',
  };
}

const resultsPath = join(root, 'bench', 'results', 'real.json');
type Results = { firstTry?: { cases: Row[] } } & Record<string, unknown>;
const readResults = (): Results => (existsSync(resultsPath) ? (JSON.parse(readFileSync(resultsPath, 'utf8')) as Results) : {});
const writeResults = (r: Results): void => {
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(resultsPath, `${JSON.stringify(r, null, 2)}\n`);
};
const firstTryProduct = process.env.PROOFPR_BENCH_FIRSTTRY;
// PROOFPR_BENCH_KEY=<key>: the run is kept under that key (rows merged by case id, every other key kept).
const runKey = process.env.PROOFPR_BENCH_KEY;
const product = process.env.PROOFPR_BENCH_PRODUCT ?? sh(root, 'git rev-parse --short HEAD').out.trim();

/** Records the rows so far under `runKey`: a case run again replaces its row; written after every case, so a stopped run keeps what finished. */
function recordKeyed(rs: readonly Row[]): void {
  if (!runKey) return;
  const previous = readResults();
  const old = (previous[runKey] as { cases?: Array<Row & { product?: string; at?: string }> } | undefined)?.cases ?? [];
  const fresh = rs.map((r) => ({ ...r, product, at: new Date().toISOString() }));
  const all = [...old.filter((o) => !fresh.some((f) => f.id === o.id)), ...fresh];
  writeResults({ ...previous, [runKey]: { updatedAt: new Date().toISOString(), summary: summarize(all), cases: all } });
}

/** Records one repository's init + doctor outcome under the key `setup` (a repository run again replaces its row). */
function recordSetup(r: SetupRow): void {
  const previous = readResults();
  const all = (previous.setup as { repos?: Array<SetupRow & { product?: string; at?: string }> } | undefined)?.repos ?? [];
  const before = all.find((o) => o.repo === r.repo && !o.machineFix);
  const withoutFix =
    r.machineFix && before ? { withoutFix: { ready: before.ready, why: before.why, product: before.product, at: before.at } } : {};
  const repos = [...all.filter((o) => o.repo !== r.repo), { ...r, ...withoutFix, product, at: new Date().toISOString() }];
  const setup = previous.setup as Record<string, unknown> | undefined;
  const fixed = repos.filter((x) => x.ready && x.machineFix).length;
  const ready = `${repos.filter((x) => x.ready).length}/${repos.length}${fixed ? ` (${fixed} with a machineFix)` : ''}`;
  writeResults({ ...previous, setup: { ...setup, ready, repos } });
}

/**
 * `--recount` (with PROOFPR_BENCH_KEY): the runner's own count of every row under the key is read again
 * from the cached output with the manifest's current count rule; nothing runs.
 */
function recount(): void {
  const previous = readResults();
  const entry = previous[runKey ?? ''] as { cases?: Row[] } | undefined;
  if (!runKey || !entry?.cases) throw new Error('--recount needs PROOFPR_BENCH_KEY naming a key of bench/results/real.json');
  const fresh = entry.cases.map((r) => {
    const c = manifest.cases.find((x) => x.id === r.id);
    const file = c && directCacheFile(c, join(cacheRoot, 'cases', c.id));
    if (!c || !file || !existsSync(file)) return r;
    const out = (JSON.parse(readFileSync(file, 'utf8')) as { out: string }).out.replace(/\x1b\[[0-9;]*m/g, '');
    const count = directCount(out, c.direct.count);
    return { ...r, direct: { ...r.direct, ...(count !== undefined ? { count } : {}) } };
  });
  writeResults({ ...previous, [runKey]: { ...entry, summary: summarize(fresh), cases: fresh } });
  console.log(`recounted ${fresh.length} rows under ${runKey}`);
}
if (process.argv.includes('--recount')) {
  recount();
  process.exit(0);
}

const setupMode = process.argv.includes('--setup');
const verifyMode = process.argv.includes('--verify');
const verifyRows: VerifyRow[] = [];
const setupRows: SetupRow[] = [];
const rows: Row[] = [];
for (const c of cases) {
  if (setupMode && setupRows.some((r) => r.repo === c.repo)) continue;
  process.stderr.write(`${c.id} (${c.runner}, ${c.repo}@${c.fix.slice(0, 7)}) …\n`);
  const m = materialize(cacheRoot, c);
  const deps = ensureInstall(c, m);
  if (qualify) {
    const q = qualifyCase(c, m, deps);
    const ok = q.testOnly !== 0 && q.fix === 0;
    process.stderr.write(
      `  qualify: test-only exit ${q.testOnly}, fix exit ${q.fix}: ${ok ? 'qualifies' : 'does NOT qualify'} (logs in ${m.dir})\n`,
    );
    continue;
  }
  if (setupMode) {
    const r = await setupCase(c, m, deps);
    setupRows.push(r);
    process.stderr.write(`  init + doctor: ${r.ready ? 'ready' : `NOT ready\n${r.why ?? ''}`}\n`);
    recordSetup(r);
    continue;
  }
  if (verifyMode) {
    const v = await verifyPasses(c, m, deps);
    const gold = goldOf(c.id);
    verifyRows.push({
      id: c.id,
      repo: c.repo,
      runner: c.runner,
      ...(gold ? { gold: { fix: gold.fix, testOnly: gold.testOnly } } : {}),
      ...v,
    });
    recordVerify(verifyRows);
    process.stderr.write(
      `  verify: fix ${v.fix.verdict} (${v.fix.reason}); test-only ${v.testOnly.verdict} (${v.testOnly.reason}); gold replays: ${gold ? `${gold.fix} / ${gold.testOnly}` : 'none recorded'}\n`,
    );
    continue;
  }
  const d = direct(c, m, deps);
  const fixPass = await cliRun(c, m, [...m.source, ...m.test], deps, 'fix');
  const testPass = await cliRun(c, m, m.test, deps, 'test-only');
  rows.push({
    id: c.id,
    repo: c.repo,
    fix: c.fix,
    runner: c.runner,
    ...(c.shape ? { shape: c.shape } : {}),
    direct: d,
    fix_: fixPass,
    testOnly: testPass,
  });
  if (!firstTryProduct) recordKeyed(rows);
  process.stderr.write(
    `  direct: ${d.count ?? '?'} tests (exit ${d.code}); fix: ${fixPass.verdict} (${fixPass.reason}); test-only: ${testPass.verdict} (${testPass.reason})\n`,
  );
}
if (qualify) process.exit(0);
if (verifyMode) {
  console.log('| case | runner | verify: fix | verify: test only | gold replay: fix / test only | same |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const r of verifyRows) {
    const same = r.gold && r.gold.fix === r.fix.verdict && r.gold.testOnly === r.testOnly.verdict;
    console.log(
      `| ${r.id} | ${r.runner} | ${r.fix.verdict} (${secs(r.fix.wallMs)}) | ${r.testOnly.verdict} (${secs(r.testOnly.wallMs)}) | ${r.gold ? `${r.gold.fix} / ${r.gold.testOnly}` : '?'} | ${same ? 'yes' : 'NO'} |`,
    );
  }
  process.exit(0);
}
if (setupMode) {
  console.log(`init + doctor ready: ${setupRows.filter((r) => r.ready).length}/${setupRows.length} repositories`);
  process.exit(0);
}

console.log('| case | runner | upstream | fix | test only | tests: proofpr / runner | fix run wall / test time | overhead |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows) {
  const counts = `${r.fix_.total ?? '?'} / ${r.direct.count ?? '?'}${r.fix_.total === r.direct.count ? '' : ' ✗'}`;
  console.log(
    `| ${r.id} | ${r.runner} | ${r.repo}@${r.fix.slice(0, 7)} | ${r.fix_.verdict} | ${r.testOnly.verdict} | ${counts} | ${secs(r.fix_.wallMs)} / ${secs(r.fix_.testMs)} (${r.fix_.testRuns} runs) | ${over(r.fix_).toFixed(2)}× |`,
  );
}
const previous = readResults();
if (firstTryProduct) {
  // A first try: the case's first run against a frozen build, kept under its own key; a later run of the same case does not replace it.
  const kept = previous.firstTry?.cases ?? [];
  const added = rows.filter((r) => !kept.some((k) => k.id === r.id));
  const all = [...kept, ...added];
  const s = summarize(all);
  console.log(
    `\nfirst try (${firstTryProduct}): ${added.length} case(s) added; over ${all.length}: verified fixes ${s.verifiedFixes}, unverified test-only ${s.unverifiedTestOnly}, counts equal ${s.countsExact}`,
  );
  const firstTry = {
    at: new Date().toISOString(),
    product: firstTryProduct,
    fixVerified: s.verifiedFixes,
    testOnlyUnverified: s.unverifiedTestOnly,
    countsExact: s.countsExact,
    summary: s,
    cases: all,
  };
  writeResults({ ...previous, firstTry });
} else {
  const summary = summarize(rows);
  const verified = rows.filter((r) => r.fix_.verdict === 'verified').length;
  const refused = rows.filter((r) => r.testOnly.verdict === 'unverified').length;
  console.log('');
  console.log(
    `verified fixes: ${summary.verifiedFixes} (${pct(verified, rows.length)}), unverified test-only changes: ${summary.unverifiedTestOnly} (${pct(refused, rows.length)}; with a counted failing harness run: ${summary.unverifiedCountedFailing}), counts equal to the runner's own: ${summary.countsExact}`,
  );
  console.log(
    `harness overhead (run wall − test-command time) / test-command time: ${summary.overheadAll}× over all ${rows.length * 2} runs, median ${summary.overheadFixMedian}× per fix run; sandbox: ${summary.sandbox}; ${summary.runners} runners`,
  );
  if (runKey) recordKeyed(rows);
  else writeResults({ ...previous, summary, rows });
}
