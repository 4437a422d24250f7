/*
 * The agent's git: a private git dir made for the run, the only repository the sandbox shows
 * (docs/security.md, row T2g). Its objects are a sanitized copy of the base commit and of its recent
 * history (commits and trees written again by `git fast-import`, the blobs that stay copied from the
 * repository's pack): every blob a masked path ever had there, and every blob whose content is a
 * credential (hasCredentialShape) unless the worktree shows it as it is, left out, and its paths given
 * the placeholder (maskedContent, the bytes the sandbox shows at a masked path, so `git status` there is
 * clean).
 * Nothing else of the user's repository is in it: no other branch or tag, no replace ref, no remote, no
 * alternate of the user's store, a config of format settings only. A git option, an environment
 * variable or a zlib reader inside the sandbox can then find no masked blob, because none is there.
 *
 * The sanitized store is cached per (base commit, tracked masked paths, history depth) under the cache
 * folder (`<PROOFPR_HOME>/agent-git` for a run) and bound read-only; the run's git dir borrows it as its
 * one alternate and is the agent's scratch (index, refs, stash, objects it makes): the harness never
 * reads it back, and keeps using the worktree's real git dir for every call of its own.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { hasCredentialShape } from '../secrets/files.js';
import { rulesFingerprint } from '../secrets/credential-content.js';
import { maskedContent } from '../secrets/placeholder.js';
import { git } from './git.js';
import { harnessGitEnv } from './harness-git-env.js';
import { fileEntries, filterExport, StreamReader } from './fast-export-filter.js';
import { WorkspaceError } from './errors.js';

/**
 * How many commits of the base's history the agent's git holds (the most recent ones, as `git log`
 * lists them; a commit whose parents fall outside becomes a root). Enough for `git log`, `git blame` and
 * `git show HEAD~n` over the work an issue is about; bounded so that a repository with a long history
 * costs seconds, not minutes, on the first run of a base commit (docs/benchmarks.md, "The agent's git").
 */
export const AGENT_HISTORY = 1000;

/** Bumped when what a cached store holds changes (a store of another version is never reused). */
const FORMAT = 1;

/** Cached stores kept (the most recently used); older ones are removed when a new one is made. */
const KEEP = 16;

/** A blob's first bytes read for a credential (as secret-file.ts judges a worktree file: a credential file is small). */
const CONTENT_MAX = 256 * 1024;

/** A blob of history bigger than this is not read at all, and is left out (unjudged). */
const READ_MAX = 32 * 1024 * 1024;

/** Only settings git needs to read the repository; everything else (remotes, extraheader tokens, helpers) stays out. */
const SAFE_CONFIG = '^core\\.(filemode|symlinks|ignorecase|precomposeunicode)$';

export interface AgentGitInput {
  /** The worktree (real path). */
  root: string;
  /** Its real git dir and common dir: read here, never shown to the sandbox. */
  gitDir: string;
  commonDir: string;
  /** Worktree-relative paths the sandbox masks (tracked or not). */
  masked: readonly string[];
  /** Where the run's private git dir is made (the run's scratch folder). */
  runTmp: string;
  /** Where sanitized stores are cached between runs. */
  cacheDir: string;
  /** Extra lines for the private git's info/exclude (the dependency links, which .gitignore does not match). */
  exclude?: readonly string[];
}

export interface AgentGit {
  /** The private git dir: bound, writable, where the worktree's git dir is inside the sandbox. */
  gitDir: string;
  /**
   * A second git dir like it, made before the agent runs and bound read-only where a clean checkout the
   * harness makes of this repository (pristine-checkout.ts) has its git dir; none on an unborn branch.
   */
  checkoutGitDir?: string;
  /** The sanitized store they borrow objects from (bound read-only); none on an unborn branch. */
  store?: string;
  /** The sanitized base commit (the private HEAD); none on an unborn branch. */
  head?: string;
}

const real = (i: AgentGitInput): Record<string, string> => ({ GIT_DIR: i.gitDir, GIT_WORK_TREE: i.root });

/** Makes the run's private git dirs (and the sanitized store when the cache has none for this base). */
export async function makeAgentGit(input: AgentGitInput): Promise<AgentGit> {
  const g = { cwd: input.root, env: real(input), okCodes: [0, 1, 128] };
  const baseRes = await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], g);
  const base = baseRes.code === 0 ? baseRes.stdout.trim() : undefined;
  const ref = (await git(['symbolic-ref', '--quiet', 'HEAD'], g)).stdout.trim();
  const format = (await git(['rev-parse', '--show-object-format'], g)).stdout.trim() || 'sha1';
  const made = base ? await sanitizedStore(input, base, format, await trackedMasked(input)) : undefined;
  const dir = { input, format, ref, base, ...(made ? { made } : {}) };
  const priv = await gitDirFor(join(input.runTmp, 'agent-git'), dir);
  if (!made) return { gitDir: priv };
  // The same again, for the harness's clean checkouts: made now, before the agent runs, and bound read-only.
  const checkouts = await gitDirFor(join(input.runTmp, 'agent-git-checkouts'), dir);
  return { gitDir: priv, checkoutGitDir: checkouts, store: made.store, head: made.head };
}

/** A git dir at `at` for the worktree: the branch (or detached HEAD) at the sanitized base, its index, the exclude lines. */
async function gitDirFor(
  at: string,
  d: { input: AgentGitInput; format: string; ref: string; base: string | undefined; made?: { store: string; head: string } },
): Promise<string> {
  await rm(at, { recursive: true, force: true });
  for (const sub of ['objects/info', 'objects/pack', 'refs/heads', 'refs/tags', 'info']) await mkdir(join(at, sub), { recursive: true });
  await writeFile(join(at, 'config'), await privateConfig(d.input, d.format));
  await writeFile(join(at, 'HEAD'), d.ref ? `ref: ${d.ref}\n` : `${d.made?.head ?? ''}\n`);
  const exclude = await readFile(join(d.input.commonDir, 'info', 'exclude'), 'utf8').catch(() => '');
  await writeFile(join(at, 'info', 'exclude'), `${exclude}${(d.input.exclude ?? []).map((l) => `${l}\n`).join('')}`);
  if (!d.made) return at;
  await writeFile(join(at, 'objects', 'info', 'alternates'), `${join(d.made.store, 'objects')}\n`);
  const p = { cwd: d.input.root, env: { GIT_DIR: at, GIT_WORK_TREE: d.input.root } };
  if (d.ref) await git(['update-ref', d.ref, d.made.head], p);
  await git(['read-tree', d.made.head], { ...p, env: { ...p.env, GIT_INDEX_FILE: join(at, 'index') } });
  return at;
}

/** The private git's config: the repository's format and file-system settings, nothing else. */
async function privateConfig(input: AgentGitInput, format: string): Promise<string> {
  const r = await git(['config', '--file', join(input.commonDir, 'config'), '--get-regexp', SAFE_CONFIG], {
    cwd: input.root,
    okCodes: [0, 1],
  });
  const core = ['\tbare = false', '\tlogallrefupdates = true', `\trepositoryformatversion = ${format === 'sha1' ? 0 : 1}`];
  for (const line of r.stdout.split('\n')) {
    const m = /^core\.([a-z]+) (true|false)$/.exec(line.trim());
    if (m) core.push(`\t${m[1]} = ${m[2]}`);
  }
  return `[core]\n${core.join('\n')}\n${format === 'sha1' ? '' : `[extensions]\n\tobjectformat = ${format}\n`}`;
}

/** The masked paths git tracks at HEAD. */
async function trackedMasked(input: AgentGitInput): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < input.masked.length; i += 500) {
    const part = input.masked.slice(i, i + 500).map((r) => `:(literal)${r}`);
    const r = await git(['ls-files', '-z', '--', ...part], { cwd: input.root, env: real(input), okCodes: [0, 1, 128] });
    out.push(...r.stdout.split('\0').filter(Boolean));
  }
  return out.sort();
}

/** The cached sanitized store of `base` (made when missing), and the sanitized base commit in it. */
async function sanitizedStore(
  input: AgentGitInput,
  base: string,
  format: string,
  tracked: string[],
): Promise<{ store: string; head: string }> {
  const key = createHash('sha256')
    .update(JSON.stringify([FORMAT, rulesFingerprint(), AGENT_HISTORY, format, base, tracked]))
    .digest('hex')
    .slice(0, 32);
  const store = join(input.cacheDir, key);
  const cached = await readFile(join(store, 'proofpr-head'), 'utf8').catch(() => undefined);
  if (cached) {
    const now = new Date();
    await utimes(store, now, now).catch(() => undefined);
    return { store, head: cached.trim() };
  }
  await mkdir(input.cacheDir, { recursive: true });
  const tmp = join(input.cacheDir, `.${key}.${process.pid}.${randomBytes(4).toString('hex')}`);
  try {
    const head = await buildStore(input, base, format, tracked, tmp);
    await writeFile(join(tmp, 'proofpr-head'), `${head}\n`);
    await rename(tmp, store).catch(async (e: NodeJS.ErrnoException) => {
      // Another run made it at the same time: theirs is the same.
      if (!(await stat(join(store, 'proofpr-head')).catch(() => undefined))) throw e;
    });
    await pruneCache(input.cacheDir, store);
    return { store, head: (await readFile(join(store, 'proofpr-head'), 'utf8')).trim() };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * A bare repository in `dir` holding the sanitized export of the base's recent history; returns the
 * sanitized base. The blobs that stay are copied from the repository's store as they are packed there
 * (a pack holds only the objects it lists: no left-out blob is the delta base of one that stays); the
 * commits and trees are written again by fast-import, each left-out blob's path holding its placeholder.
 */
async function buildStore(input: AgentGitInput, base: string, format: string, tracked: string[], dir: string): Promise<string> {
  await git(['init', '--quiet', '--bare', `--object-format=${format}`, dir], { cwd: input.root });
  for (const extra of ['hooks', 'description', 'info']) await rm(join(dir, extra), { recursive: true, force: true });
  await writeFile(join(dir, 'config'), await privateConfig(input, format));
  const revs = ['--no-data', '--show-original-ids', `--max-count=${AGENT_HISTORY}`, '--reencode=yes', '--signed-tags=strip', base];
  // Commits and file entries only (blobs named by id): small, and read twice.
  const exported = await withGit(['fast-export', ...revs], real(input), input.root, collect);
  const paths = new Set(tracked);
  const blobs = new Set<string>();
  const atMasked = new Set<string>();
  for await (const [oid, path] of fileEntries(Readable.from([exported]))) {
    blobs.add(oid);
    if (paths.has(path)) atMasked.add(oid);
  }
  // Blobs the worktree shows as they are (tracked, not masked) are never left out, whatever they hold.
  const shown = await visibleBlobs(input, base, paths);
  // A blob-less mirror holds only the contents it checked out: the others are never fetched for this.
  const local = await localObjects(input);
  const missing = new Set(local ? [...blobs].filter((b) => !local.has(b)) : []);
  const leftOut = await judgeBlobs(
    input,
    [...blobs].filter((b) => !atMasked.has(b) && !shown.has(b) && !missing.has(b)),
  );
  for (const b of [...atMasked, ...missing]) leftOut.add(b);
  const keep = [...blobs].filter((b) => !leftOut.has(b));
  if (keep.length) {
    await git(['pack-objects', '--quiet', join(dir, 'objects', 'pack', 'pack')], {
      cwd: input.root,
      env: real(input),
      input: `${keep.join('\n')}\n`,
    });
  }
  const marksFile = join(dir, 'proofpr-marks');
  const importer = spawn('git', ['fast-import', '--quiet', `--export-marks=${marksFile}`], {
    cwd: dir,
    env: { ...harnessGitEnv(), GIT_DIR: dir },
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const imported = exited(importer, 'fast-import');
  importer.stdin.on('error', () => undefined); // a failed import is reported by its exit
  const marks = await filterExport(Readable.from([exported]), importer.stdin, {
    ref: 'refs/heads/proofpr-agent',
    secret: (oid) => leftOut.has(oid),
    placeholder: (path, oid) => (missing.has(oid) ? notFetched(path) : maskedContent(path)),
  }).finally(() => importer.stdin.end());
  await imported;
  const mark = marks.get(base);
  const line = (await readFile(marksFile, 'utf8')).split('\n').find((l) => mark !== undefined && l.startsWith(`${mark} `));
  const head = line?.split(' ')[1];
  if (!head) throw new WorkspaceError('git', `the agent's git: the sanitized export of ${base} has no commit for it`);
  await rm(marksFile, { force: true });
  await git(['update-ref', 'refs/heads/proofpr-agent', head], { cwd: dir, env: { GIT_DIR: dir } });
  return head;
}

/**
 * The blobs among `ids` to leave out: those whose content is a credential (hasCredentialShape, on their
 * first CONTENT_MAX bytes, as a worktree file is judged), and those too big to read (READ_MAX).
 */
async function judgeBlobs(input: AgentGitInput, ids: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  if (ids.length === 0) return out;
  const g = { cwd: input.root, env: real(input) };
  const sizes = await git(['cat-file', '--batch-check=%(objectname) %(objectsize)'], { ...g, input: `${ids.join('\n')}\n` });
  const read: string[] = [];
  for (const line of sizes.stdout.split('\n')) {
    const [id, size] = line.split(' ');
    if (!id || !size) continue;
    if (!/^\d+$/.test(size) || Number(size) > READ_MAX) out.add(id);
    else read.push(id);
  }
  if (read.length === 0) return out;
  const child = spawn('git', ['cat-file', '--batch'], {
    cwd: input.root,
    env: { ...harnessGitEnv(), ...g.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const done = exited(child, 'cat-file');
  child.stdin.on('error', () => undefined);
  child.stdin.end(`${read.join('\n')}\n`);
  const r = new StreamReader(child.stdout);
  for (let head = await r.line(); head !== undefined; head = await r.line()) {
    const m = /^([0-9a-f]+) blob (\d+)$/.exec(head);
    if (!m) continue;
    const data = await r.bytes(Number(m[2]) + 1);
    if (hasCredentialShape(data.subarray(0, Math.min(CONTENT_MAX, Number(m[2]))).toString('latin1'))) out.add(m[1]!);
  }
  await done;
  return out;
}

/** What a path of history shows when its blob is not in the repository (a blob-less mirror fetched only the checked-out ones). */
const notFetched = (path: string): string =>
  `proofpr: this version of ${path} is not in the local copy of the repository (a blob-less mirror holds only checked-out contents)\n`;

/** The objects a partial clone (a blob-less mirror) holds, listed without fetching any; undefined for a full repository. */
async function localObjects(input: AgentGitInput): Promise<Set<string> | undefined> {
  const g = { cwd: input.root, env: real(input), okCodes: [0, 1] };
  const promisor = await git(['config', '--get-regexp', '^(extensions\\.partialclone|remote\\..*\\.promisor)$'], g);
  if (!promisor.stdout.trim()) return undefined;
  const all = await git(['cat-file', '--batch-all-objects', '--batch-check=%(objectname)'], { ...g, okCodes: [0] });
  return new Set(all.stdout.split('\n').filter(Boolean));
}

/** Blob ids of the base tree at paths that are not masked (the worktree shows them as they are). */
async function visibleBlobs(input: AgentGitInput, base: string, masked: Set<string>): Promise<Set<string>> {
  const out = new Set<string>();
  const r = await git(['ls-tree', '-r', '-z', '--full-tree', base], { cwd: input.root, env: real(input) });
  for (const entry of r.stdout.split('\0')) {
    const m = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(entry);
    if (m && !masked.has(m[2]!)) out.add(m[1]!);
  }
  return out;
}

/** Runs git with its stdout handed to `use`; rejects when git fails. */
async function withGit<T>(args: string[], env: Record<string, string>, cwd: string, use: (out: Readable) => Promise<T>): Promise<T> {
  const child = spawn('git', args, { cwd, env: { ...harnessGitEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const done = exited(child, args[0] ?? 'git');
  try {
    const v = await use(child.stdout);
    await done;
    return v;
  } catch (e) {
    child.kill('SIGKILL');
    await done.catch(() => undefined);
    throw e;
  }
}

async function collect(out: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const b of out) parts.push(b as Buffer);
  return Buffer.concat(parts);
}

function exited(child: ReturnType<typeof spawn>, what: string): Promise<void> {
  const err: Buffer[] = [];
  child.stderr?.on('data', (d: Buffer) => err.length < 64 && err.push(d));
  return new Promise((resolve, reject) => {
    child.on('error', (e) => reject(new WorkspaceError('git', `the agent's git: could not run git ${what}: ${e.message}`)));
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(
            new WorkspaceError(
              'git',
              `the agent's git: git ${what} failed (exit ${code}): ${Buffer.concat(err).toString('utf8').trim().slice(-500)}`,
            ),
          ),
    );
  });
}

/** Removes the cached stores beyond the KEEP most recently used (never `keep`), and builds left by a killed run a day ago. */
async function pruneCache(cacheDir: string, keep: string): Promise<void> {
  const all = await readdir(cacheDir).catch(() => [] as string[]);
  for (const n of all.filter((x) => x.startsWith('.'))) {
    const st = await stat(join(cacheDir, n)).catch(() => undefined);
    if (st && Date.now() - st.mtimeMs > 24 * 3600_000) await rm(join(cacheDir, n), { recursive: true, force: true }).catch(() => undefined);
  }
  const names = all.filter((n) => !n.startsWith('.'));
  if (names.length <= KEEP) return;
  const aged = await Promise.all(
    names.map(async (n) => ({ p: join(cacheDir, n), t: (await stat(join(cacheDir, n)).catch(() => undefined))?.mtimeMs ?? 0 })),
  );
  aged.sort((a, b) => b.t - a.t);
  for (const { p } of aged.slice(KEEP)) if (p !== keep) await rm(p, { recursive: true, force: true }).catch(() => undefined);
}
