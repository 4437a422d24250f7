/**
 * Workspace figures on a ≥30k-file repository served over file:// (see README.md for the command):
 * fresh `git clone` vs second-run preparation (mirror fetch + worktree), worktree removal, and the
 * tree hash after a one-file change vs raw git. Prints a table, writes bench/results/workspace.json.
 */
import { mkdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { silentLogger } from '../../src/log.js';
import { ensureMirror } from '../../src/workspace/mirror.js';
import { treeHash } from '../../src/workspace/tree-hash.js';
import { createWorktree, type Worktree } from '../../src/workspace/worktree.js';
import { ensureFixture, g } from './fixture.js';

const root = resolve(process.argv[2] ?? '.');
const cache = join(root, 'bench/.cache/workspace');
const reps = Number(process.env.BENCH_REPS ?? 3);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
async function time<T>(fn: () => Promise<T> | T): Promise<[number, T]> {
  const t = performance.now();
  const v = await fn();
  return [performance.now() - t, v];
}

async function main(): Promise<void> {
  mkdirSync(cache, { recursive: true });
  writeFileSync(join(root, 'bench/.cache/.gitignore'), '*\n');
  const [fixtureMs, { bare: fixture, files }] = await time(() => ensureFixture(cache, join(root, 'node_modules')));
  const scratch = join(cache, `run-${process.pid}`);
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  // The "remote" shares the fixture's objects; new commits land only in it.
  const remote = join(scratch, 'remote.git');
  g(scratch, ['clone', '-q', '--bare', '--shared', fixture, remote]);
  g(remote, ['config', 'uploadpack.allowFilter', 'true']);
  g(remote, ['config', 'uploadpack.allowAnySHA1InWant', 'true']);
  const url = pathToFileURL(remote).href;
  const pushChange = (n: number): void => {
    const work = join(scratch, `push-${n}`);
    g(scratch, ['clone', '-q', '--no-checkout', '--filter=blob:none', url, work]);
    const idx = { GIT_INDEX_FILE: join(work, 'bench.index') };
    g(work, ['read-tree', 'HEAD'], idx);
    writeFileSync(join(work, 'change.txt'), `change ${n}\n`);
    const sha = g(work, ['hash-object', '-w', 'change.txt']);
    g(work, ['update-index', '--add', '--cacheinfo', `100644,${sha},CHANGE-${n}.txt`], idx);
    const commit = g(work, ['commit-tree', g(work, ['write-tree'], idx), '-p', 'HEAD', '-m', `change ${n}`]);
    g(work, ['push', '-q', 'origin', `${commit}:refs/heads/main`]);
    rmSync(work, { recursive: true, force: true });
  };

  const clones: number[] = [];
  for (let i = 0; i < reps; i++) {
    const dest = join(scratch, `clone-${i}`);
    clones.push((await time(() => g(scratch, ['clone', '-q', url, dest])))[0]);
    rmSync(dest, { recursive: true, force: true });
  }

  const home = join(scratch, 'home');
  const worktreesDir = join(home, 'worktrees');
  const base = { baseRef: 'main', worktreesDir, logger: silentLogger };
  const [coldMirrorMs, { dir }] = await time(() => ensureMirror({ home, url, logger: silentLogger }));
  const [coldWorktreeMs, first] = await time(() => createWorktree({ ...base, repoDir: dir, branch: 'proofpr/1-bench', runId: 'cold', pool: true }));
  const [parkMs] = await time(() => first.remove());

  const warm: { fetch: number; worktree: number; total: number; park: number }[] = [];
  for (let i = 0; i < reps; i++) {
    pushChange(i);
    const [fetch] = await time(() => ensureMirror({ home, url, logger: silentLogger }));
    const [wtMs, wt] = await time(() => createWorktree({ ...base, repoDir: dir, branch: 'proofpr/1-bench', runId: `warm-${i}`, pool: true }));
    if (!wt.reused) throw new Error('expected a pooled worktree');
    const [park] = await time(() => wt.remove());
    warm.push({ fetch, worktree: wtMs, total: fetch + wtMs, park });
  }

  const fresh: { fetch: number; worktree: number; total: number; remove: number }[] = [];
  let keep: Worktree | undefined;
  for (let i = 0; i < reps; i++) {
    pushChange(100 + i);
    const [fetch] = await time(() => ensureMirror({ home, url, logger: silentLogger }));
    const [wtMs, wt] = await time(() => createWorktree({ ...base, repoDir: dir, branch: `proofpr/2-bench-${i}`, runId: `fresh-${i}` }));
    if (i === reps - 1) {
      keep = wt;
      fresh.push({ fetch, worktree: wtMs, total: fetch + wtMs, remove: NaN });
      break;
    }
    const [rm] = await time(() => wt.remove());
    fresh.push({ fetch, worktree: wtMs, total: fetch + wtMs, remove: rm });
  }

  // Tree hash after a one-file change, against raw git on the real index.
  const wt = keep as Worktree;
  const target = join(wt.path, 'README-bench.txt');
  const hashes: number[] = [];
  const rawAddWrite: number[] = [];
  const rawWrite: number[] = [];
  await treeHash(wt.path);
  for (let i = 0; i < reps + 2; i++) {
    appendFileSync(target, `line ${i}\n`);
    hashes.push((await time(() => treeHash(wt.path)))[0]);
    rawAddWrite.push((await time(() => g(wt.path, ['add', '-A']) + g(wt.path, ['write-tree'])))[0]);
    rawWrite.push((await time(() => g(wt.path, ['write-tree'])))[0]);
    g(wt.path, ['reset', '-q']);
  }
  const [removeMs] = await time(() => wt.remove());
  fresh[fresh.length - 1]!.remove = removeMs;

  const r = (x: number): number => Math.round(x * 10) / 10;
  const ratio = (a: number, b: number): number => Number((a / b).toFixed(3));
  const clone = median(clones);
  const warmTotal = median(warm.map((w) => w.total));
  const freshTotal = median(fresh.map((w) => w.total));
  const results = {
    fixture: { files, buildMs: r(fixtureMs), served: 'file://' },
    freshCloneMs: r(clone),
    cold: { mirrorCloneMs: r(coldMirrorMs), worktreeMs: r(coldWorktreeMs), parkMs: r(parkMs) },
    secondRunPooled: { fetchMs: r(median(warm.map((w) => w.fetch))), worktreeMs: r(median(warm.map((w) => w.worktree))), totalMs: r(warmTotal), ratioToClone: ratio(warmTotal, clone) },
    secondRunFreshWorktree: { fetchMs: r(median(fresh.map((w) => w.fetch))), worktreeMs: r(median(fresh.map((w) => w.worktree))), totalMs: r(freshTotal), ratioToClone: ratio(freshTotal, clone) },
    removal: { pooledParkMs: r(median(warm.map((w) => w.park))), fullRemoveMs: r(median(fresh.map((w) => w.remove))) },
    treeHash: {
      treeHashMs: r(median(hashes)),
      rawAddAndWriteTreeMs: r(median(rawAddWrite)),
      rawWriteTreeOnlyMs: r(median(rawWrite)),
      ratioToRawAddAndWriteTree: ratio(median(hashes), median(rawAddWrite)),
    },
    reps,
    targets: { secondRunRatio: 0.1, treeHashRatio: 1.2 },
  };
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/workspace.json'), JSON.stringify(results, null, 2) + '\n');
  rmSync(scratch, { recursive: true, force: true });
  console.log(`fixture: ${files} files (file://)`);
  console.table({
    'fresh git clone': { ms: r(clone) },
    'cold: mirror clone (blob-less)': { ms: r(coldMirrorMs) },
    'cold: first worktree': { ms: r(coldWorktreeMs) },
    'second run, pooled: fetch + worktree': { ms: r(warmTotal), 'x clone': results.secondRunPooled.ratioToClone },
    'second run, fresh worktree: fetch + add': { ms: r(freshTotal), 'x clone': results.secondRunFreshWorktree.ratioToClone },
    'removal: park in pool': { ms: results.removal.pooledParkMs },
    'removal: git worktree remove': { ms: results.removal.fullRemoveMs },
    'treeHash after one-file change': { ms: results.treeHash.treeHashMs, 'x raw': results.treeHash.ratioToRawAddAndWriteTree },
    'raw git add -A + write-tree': { ms: results.treeHash.rawAddAndWriteTreeMs },
    'raw git write-tree only': { ms: results.treeHash.rawWriteTreeOnlyMs },
  });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
