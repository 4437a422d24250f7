/**
 * Materialize a corpus case as a real git repository, and the trees the proof needs: the base, the tree
 * after the agent's edits, the hidden check (the base's test harness with the edited tree's source) and
 * the red→green tree (the edited tree's tests with the base's source).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CaseEdit, CorpusCase, Files } from './types.js';
import { git, tempRepo, writeFiles, type TempRepo } from '../../kit/e2e-repo.js';

export { git, writeFiles } from '../../kit/e2e-repo.js';

/** The files after `edits`, as the Write/Edit tools would leave them (an Edit's old text must occur exactly once). */
export function applyEdits(files: Files, edits: readonly CaseEdit[]): Files {
  const out: Files = { ...files };
  for (const e of edits) {
    if (e.kind === 'bash') continue; // its effect is known only by running it (the after stage does)
    if (e.kind === 'write') out[e.path] = e.content;
    else if (e.kind === 'remove') {
      if (out[e.path] === undefined) throw new Error(`remove ${e.path}: no such file in the case`);
      delete out[e.path];
    } else {
      const text = out[e.path];
      if (text === undefined) throw new Error(`edit ${e.path}: no such file in the case`);
      const at = text.indexOf(e.old);
      if (at < 0 || text.indexOf(e.old, at + 1) >= 0) throw new Error(`edit ${e.path}: the old text must occur exactly once: ${e.old}`);
      out[e.path] = text.slice(0, at) + e.new + text.slice(at + e.old.length);
    }
  }
  return out;
}

/** Whether `path` is code under repair in case `c` (see CorpusCase.source). */
export function isSourcePath(c: CorpusCase, path: string): boolean {
  if (c.source) return c.source.some((s) => (s.endsWith('/') ? path.startsWith(s) : path === s));
  const base = path.split('/').pop() ?? path;
  if (c.lang === 'rs') return path.startsWith('src/') && path.endsWith('.rs');
  if (c.lang === 'js') return path.startsWith('src/') || path.startsWith('lib/');
  if (c.lang === 'py')
    return path.endsWith('.py') && !/^tests?\//.test(path) && base !== 'conftest.py' && !/^test_.*\.py$|_test\.py$/.test(base);
  return path.endsWith('.go') && !path.endsWith('_test.go') && !path.split('/').includes('testdata');
}

export const afterFiles = (c: CorpusCase): Files => applyEdits(c.base, c.edits);

/** Rust: a source file's code and its inline test module (from the `#[cfg(test)]` line to the end; '' when none). */
function splitInlineTests(text: string): [code: string, tests: string] {
  const at = text.search(/^#\[cfg\(test\)\]/m);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at)];
}

/**
 * Overlay: `from` with the source paths of `src` (added, changed or removed there). Rust keeps `from`'s
 * inline test modules: the code is `src`'s, the tests are `from`'s.
 */
export function withSourceOf(c: CorpusCase, from: Files, src: Files): Files {
  const out: Files = {};
  for (const [p, t] of Object.entries(from)) if (!isSourcePath(c, p)) out[p] = t;
  for (const [p, t] of Object.entries(src)) {
    if (!isSourcePath(c, p)) continue;
    const harness = from[p];
    out[p] = c.lang === 'rs' && harness !== undefined ? splitInlineTests(t)[0] + splitInlineTests(harness)[1] : t;
  }
  return out;
}

/** The hidden check's tree: every test, setup, fixture and config path as on the base; the source as after the edits. */
export const hiddenFiles = (c: CorpusCase): Files => withSourceOf(c, c.base, afterFiles(c));

/** The red→green tree: the edited tests, setup and config over the base's source. */
export const redGreenFiles = (c: CorpusCase): Files => withSourceOf(c, afterFiles(c), c.base);

export type Stage = 'base' | 'after' | 'hidden' | 'red-green';

export function stageFiles(c: CorpusCase, stage: Stage): Files {
  if (stage === 'base') return c.base;
  if (stage === 'after') return afterFiles(c);
  return stage === 'hidden' ? hiddenFiles(c) : redGreenFiles(c);
}

/** A materialized stage: the repository (a git work tree with one commit) and a private folder around it, for run folders, worktrees and a home. */
export type Materialized = TempRepo;

export interface MaterializeOptions {
  /** The project root whose node_modules a JavaScript case links (default: the current folder). */
  root?: string;
  /** Where to make the temporary folder (default: the system's). */
  tmp?: string;
}

/**
 * A temp git repository holding the case's files at `stage`, committed on `main`. A JavaScript case gets
 * `node_modules` linked to the project's installed packages (ignored by git, as `npm ci` would leave it).
 */
export function materialize(c: CorpusCase, stage: Stage = 'base', opts: MaterializeOptions = {}): Materialized {
  const replay = stage === 'after' && hasBashSteps(c);
  const m = tempRepo({
    files: stageFiles(c, replay ? 'base' : stage),
    nodeModules: c.lang === 'js' && (opts.root ?? '.'),
    prefix: `proofpr-trap-${c.id}-`,
    parent: opts.tmp,
    message: `${c.id}: ${replay ? 'base' : stage}`,
  });
  if (replay) {
    replayEdits(c, m);
    git(m.dir, ['add', '-A']);
    git(m.dir, ['commit', '-q', '--allow-empty', '-m', `${c.id}: after`]);
  }
  return m;
}

const hasBashSteps = (c: CorpusCase): boolean => c.edits.some((e) => e.kind === 'bash');

/** The case's edits made on disk in order, `bash` steps run in the repository (the after stage of a case with shell steps). */
function replayEdits(c: CorpusCase, m: Materialized): void {
  for (const e of c.edits) {
    const path = e.kind === 'bash' ? '' : join(m.dir, e.path);
    if (e.kind === 'write') writeFiles(m.dir, { [e.path]: e.content });
    else if (e.kind === 'remove') rmSync(path, { force: true });
    else if (e.kind === 'edit')
      writeFileSync(
        path,
        readFileSync(path, 'utf8').replace(e.old, () => e.new),
      );
    else {
      const r = runCommand(m.dir, e.command, m.work);
      if (r.code !== 0) throw new Error(`${c.id}: the step \`${e.command}\` failed:\n${r.output.slice(-1500)}`);
    }
  }
}

export interface CommandResult {
  code: number;
  output: string;
  ms: number;
}

/**
 * The environment a maintainer's CI would give `command`: a small one (PATH, a private HOME, CI=1), Go
 * with a shared build cache and no network, Python without bytecode files.
 */
function ciEnv(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    CI: '1',
    NO_COLOR: '1',
    GOCACHE: join(tmpdir(), 'proofpr-trap-corpus-gocache'),
    GOPATH: join(tmpdir(), 'proofpr-trap-corpus-gopath'),
    GOFLAGS: '-mod=mod',
    GOPROXY: 'off',
    GOTOOLCHAIN: 'local',
    GOTELEMETRY: 'off',
    // rustup's shims find the toolchains under the real home; the crates have no dependencies.
    RUSTUP_HOME: process.env.RUSTUP_HOME ?? join(homedir(), '.rustup'),
    CARGO_HOME: process.env.CARGO_HOME ?? join(homedir(), '.cargo'),
    CARGO_NET_OFFLINE: 'true',
    PYTHONDONTWRITEBYTECODE: '1',
    // Under pyenv, python3 is a shim: take the system interpreter (python3-pytest), as CI has.
    PYENV_VERSION: 'system',
  };
}

const COMMAND_TIMEOUT_MS = 120_000;

/** Run `command` with bash in `dir`, the way a maintainer's CI would (see ciEnv). */
export function runCommand(dir: string, command: string, home: string): CommandResult {
  const t = Date.now();
  const r = spawnSync('bash', ['-c', command], {
    cwd: dir,
    env: ciEnv(home),
    encoding: 'utf8',
    timeout: COMMAND_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status ?? 1, output: `${r.stdout ?? ''}${r.stderr ?? ''}`, ms: Date.now() - t };
}

/** runCommand without blocking: cases of a file can run their commands side by side. */
export function runCommandAsync(dir: string, command: string, home: string): Promise<CommandResult> {
  const t = Date.now();
  return new Promise((done) => {
    const child = spawn('bash', ['-c', command], { cwd: dir, env: ciEnv(home), stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => out.push(b));
    const timer = setTimeout(() => child.kill('SIGKILL'), COMMAND_TIMEOUT_MS);
    const end = (code: number): void => {
      clearTimeout(timer);
      done({ code, output: Buffer.concat(out).toString('utf8'), ms: Date.now() - t });
    };
    child.once('error', () => end(1));
    child.once('close', (code) => end(code ?? 1));
  });
}

export interface Proof {
  /** The base suite (must fail). */
  base: CommandResult;
  /** The suite after the edits (must pass). */
  after: CommandResult;
  /** The base's failing tests on the edited source (trap: must still fail; control: must pass). */
  hidden: CommandResult;
  /** Controls only: the edited tests on the base's source (must fail: the new or changed tests reproduce the issue). */
  redGreen?: CommandResult;
}

/** Runs made or under way, by tree and command: cases that share a base (and traps whose hidden tree is the base) run it once. */
export type ProofCache = Map<string, Promise<CommandResult>>;

const treeKey = (c: CorpusCase, stage: Stage, command: string): string =>
  createHash('sha256')
    .update(
      JSON.stringify([
        c.lang,
        command,
        Object.entries(stageFiles(c, stage)).sort(([a], [b]) => (a < b ? -1 : 1)),
        // Shell steps make files the text model does not know: such a tree is its case's own.
        stage === 'after' && hasBashSteps(c) ? c.edits : [],
      ]),
    )
    .digest('hex');

/** Materialize each tree of `c` and run its command there: the runner alone, no product. */
export async function prove(c: CorpusCase, opts: MaterializeOptions = {}, cache: ProofCache = new Map()): Promise<Proof> {
  const at = (stage: Stage, command: string): Promise<CommandResult> => {
    const key = treeKey(c, stage, command);
    const hit = cache.get(key);
    if (hit) return hit;
    const m = materialize(c, stage, opts);
    const r = runCommandAsync(m.dir, command, m.work).finally(() => rmSync(m.work, { recursive: true, force: true }));
    cache.set(key, r);
    return r;
  };
  // One command at a time within a case (cases may run side by side).
  const base = await at('base', c.command);
  const after = await at('after', c.command);
  const hidden = await at('hidden', c.hiddenCommand ?? c.command);
  return { base, after, hidden, ...(c.kind === 'control' ? { redGreen: await at('red-green', c.command) } : {}) };
}
