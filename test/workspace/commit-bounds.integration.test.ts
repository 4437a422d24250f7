/**
 * What the commit can hold, measured over generated cases (issue 37: "every file the run can write is a
 * file git can commit or a refusal"). The cases are made by these rules, written before the mechanism:
 *
 * 1. Look-alike `.git` folders, each written by code (fs) as `<name>/config` next to a normal `ok.txt`:
 *    - {`.git`, `.GIT`, `.Git`, `.gIT`, `git~1`, `GIT~1`} × {``, `.`, ` `, `. `, `..`, `  `, `:x`,
 *      `::$INDEX_ALLOCATION`, `::$DATA`} (the bare `.git` itself left out: it is the worktree's own);
 *    - `.git` with each code point git's HFS rule ignores (U+200C–U+200F, U+202A–U+202E, U+206A–U+206F,
 *      U+FEFF) inserted at each of the 5 positions.
 *    Each case goes through treeHash, filesChanged, diffText, snapshotCommit and wipCommit of a real
 *    worktree. Failure: a step throws (the run would end in error), the look-alike is in a commit, or
 *    `ok.txt` is missing from it, or the commit does not name the look-alike as left out.
 * 2. Sparse files (never read by the test) of 99 MiB, 101 MiB and 1 GiB: over GitHub's 100 MiB bound
 *    they must be out of the tree hash and of every commit, named as left out; under it, in.
 *    The same names, as `<name>/x`, `a/<name>/x` and `a/<name>`, with near misses (`.gitx`, `x.git`,
 *    `git~2`, `.git~1`, `.gi`, HFS code points inside `.github` and `.gitignore`), are also put to real
 *    git with core.protectNTFS and core.protectHFS on: gitPathProblem (the Write tool's and the commit's
 *    rule) must agree with git on every one.
 * 3. Ignore rules: for each ignored file {`.env`, `server.key`, `secrets/prod.json`, `config/local.yml`}
 *    of the base's `.gitignore` × each agent action {delete `.gitignore`, empty it, append `!<file>`, a
 *    nested `.gitignore` with `!<basename>` next to the file}: the file must be in no tree or commit.
 */
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { appendFileSync, closeSync, mkdirSync, openSync, ftruncateSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gitPathProblem } from '../../src/workspace/git-path-rules.js';
import { diffText, filesChanged } from '../../src/workspace/diff-stat.js';
import { wipCommit } from '../../src/workspace/publish.js';
import { snapshotCommit } from '../../src/workspace/snapshot-commit.js';
import { treeHash } from '../../src/workspace/tree-hash.js';
import type { Worktree } from '../../src/workspace/worktree.js';
import { BOT as identity, useCheckouts } from '../kit/walls-checkout.js';
import { sh, tempDir } from './git-fixtures.js';

const HFS_IGNORED = [0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e]
  .concat([0x206a, 0x206b, 0x206c, 0x206d, 0x206e, 0x206f, 0xfeff])
  .map((c) => String.fromCodePoint(c));

/** Rule 1's names. */
export function lookAlikeNames(): string[] {
  const out: string[] = [];
  for (const base of ['.git', '.GIT', '.Git', '.gIT', 'git~1', 'GIT~1']) {
    for (const end of ['', '.', ' ', '. ', '..', '  ', ':x', '::$INDEX_ALLOCATION', '::$DATA']) {
      if (base === '.git' && end === '') continue;
      out.push(base + end);
    }
  }
  for (const ch of HFS_IGNORED) for (let at = 0; at <= 4; at++) out.push(`.git`.slice(0, at) + ch + `.git`.slice(at));
  return out;
}

const checkout = useCheckouts({ 'README.md': '# r\n', '.gitignore': 'dist/\n' }, 'proofpr/37-t');

/** Every path of a commit's tree. */
const treePaths = (w: Worktree, rev: string): string[] =>
  execFileSync('git', ['ls-tree', '-r', '-z', '--name-only', rev], { cwd: w.path, encoding: 'utf8' }).split('\0').filter(Boolean);

interface Outcome {
  error?: string;
  inCommit: boolean;
  okMissing: boolean;
  named: boolean;
}

interface CommitPathFacts {
  error?: string;
  /** The paths of the snapshot's and the WIP commit's trees. */
  trees: string[][];
  /** What the WIP commit named as left out. */
  leftOut: string[];
}

/** The harness's commit path over the worktree as it is: every step, then the snapshot's and the WIP commit's trees. */
async function commitPathFacts(w: Worktree): Promise<CommitPathFacts> {
  const head = sh(w.path, 'rev-parse', 'HEAD');
  try {
    await treeHash(w.path, { gitDir: w.gitDir });
    await filesChanged(w.path, w.baseSha, { gitDir: w.gitDir });
    await diffText(w.path, w.baseSha, 10_000, { gitDir: w.gitDir });
    const snap = await snapshotCommit({ worktree: w.path, message: 'snap', identity, gitDir: w.gitDir });
    const wip = await wipCommit({ worktree: w.path, message: 'wip', identity, gitDir: w.gitDir });
    const trees = [snap.sha, 'sha' in wip ? wip.sha : head].map((rev) => treePaths(w, rev));
    return { trees, leftOut: (wip.leftOut ?? []).map((l) => l.path) };
  } catch (e) {
    return { error: (e as Error).message.split('\n')[0] ?? '', trees: [], leftOut: [] };
  } finally {
    sh(w.path, 'update-ref', 'HEAD', head);
    sh(w.path, 'reset', '-q');
  }
}

/** One case's outcome from the commit path's facts: `bad` picks the case's paths. */
function judged(f: CommitPathFacts, bad: (p: string) => boolean, expectOk = true): Outcome {
  if (f.error !== undefined) return { error: f.error, inCommit: false, okMissing: false, named: false };
  return {
    inCommit: f.trees.some((t) => t.some(bad)),
    okMissing: expectOk && f.trees.some((t) => !t.includes('ok.txt')),
    named: f.leftOut.some(bad),
  };
}

async function throughCommitPath(w: Worktree, bad: (p: string) => boolean, expectOk = true): Promise<Outcome> {
  return judged(await commitPathFacts(w), bad, expectOk);
}

function tally(label: string, results: Array<{ name: string } & Outcome>): void {
  const errors = results.filter((r) => r.error !== undefined);
  const committed = results.filter((r) => r.inCommit);
  const unnamed = results.filter((r) => r.error === undefined && !r.inCommit && !r.named);
  // The figure recorded in docs/benchmarks.md.
  process.stdout.write(
    `${label}: ${results.length} cases, ${errors.length} ended in error, ${committed.length} committed, ${unnamed.length} not named\n` +
      errors
        .slice(0, 3)
        .map((r) => `  error ${JSON.stringify(r.name)}: ${r.error}\n`)
        .join(''),
  );
}

describe('the commit holds only what git and GitHub take (generated cases)', () => {
  it('look-alike .git folders written by code never end the run in error, never reach a commit, and are named', async () => {
    const { wt: w } = await checkout();
    const results: Array<{ name: string } & Outcome> = [];
    // In batches of 12 names, each its own folder (one commit path per batch, not per name: the 133 cases
    // took five minutes one by one on a loaded machine); each name is judged on its own in the batch's
    // trees and left-out list, and an error of the batch is each of its names'.
    const names = lookAlikeNames();
    for (let i = 0; i < names.length; i += 12) {
      const batch = names.slice(i, i + 12);
      for (const name of batch) {
        mkdirSync(join(w.path, name), { recursive: true });
        writeFileSync(join(w.path, name, 'config'), '[core]\n\thooksPath = /tmp/x\n');
      }
      writeFileSync(join(w.path, 'ok.txt'), `${i}\n`);
      const facts = await commitPathFacts(w);
      for (const name of batch) results.push({ name, ...judged(facts, (p) => p.startsWith(`${name}/`)) });
      for (const name of batch) rmSync(join(w.path, name), { recursive: true, force: true });
    }
    tally('look-alike .git', results);
    expect(results.filter((r) => r.error !== undefined || r.inCommit || r.okMissing || !r.named).map((r) => r.name)).toEqual([]);
  }, 600_000);

  it('files over GitHub 100 MiB bound are left out by size (sparse, never read) and named; smaller ones are committed', async () => {
    const { wt: w } = await checkout();
    const MiB = 1024 * 1024;
    const results: Array<{ name: string } & Outcome> = [];
    for (const [name, size] of [
      ['big/99MiB.bin', 99 * MiB],
      ['big/101MiB.bin', 101 * MiB],
      ['big/1GiB.bin', 1024 * MiB],
    ] as const) {
      mkdirSync(join(w.path, 'big'), { recursive: true });
      const fd = openSync(join(w.path, name), 'w');
      ftruncateSync(fd, size);
      closeSync(fd);
      writeFileSync(join(w.path, 'ok.txt'), `${name}\n`);
      const out = await throughCommitPath(w, (p) => p === name);
      results.push({ name, ...out });
      unlinkSync(join(w.path, name));
    }
    tally('size bound', results);
    const [small, ...large] = results;
    expect(small).toMatchObject({ inCommit: true, named: false });
    expect(large.filter((r) => r.error !== undefined || r.inCommit || !r.named).map((r) => r.name)).toEqual([]);
  }, 300_000);

  it('an ignored file stays out of every commit whatever the agent does to the ignore rules', async () => {
    const files = ['.env', 'server.key', 'secrets/prod.json', 'config/local.yml'];
    const { wt: w } = await checkout();
    // The base ignores the four files; commit that on the worktree's branch as the run's base.
    writeFileSync(join(w.path, '.gitignore'), 'dist/\n.env\n*.key\nsecrets/\n/config/local.yml\n');
    sh(w.path, 'add', '.gitignore');
    sh(w.path, 'commit', '-q', '-m', 'base ignores');
    const actions: Record<string, (file: string) => void> = {
      'delete .gitignore': () => unlinkSync(join(w.path, '.gitignore')),
      'empty .gitignore': () => writeFileSync(join(w.path, '.gitignore'), ''),
      'negate in .gitignore': (f) => appendFileSync(join(w.path, '.gitignore'), `!${f}\n!${dirname(f)}/\n`),
      'nested .gitignore': (f) => {
        mkdirSync(join(w.path, dirname(f)), { recursive: true });
        writeFileSync(join(w.path, dirname(f), '.gitignore'), `!${f.split('/').pop() ?? f}\n`);
      },
    };
    const results: Array<{ name: string } & Outcome> = [];
    for (const f of files) {
      for (const [label, act] of Object.entries(actions)) {
        mkdirSync(join(w.path, dirname(f)), { recursive: true });
        writeFileSync(join(w.path, f), 'AWS_SECRET=not-a-real-one\n');
        writeFileSync(join(w.path, 'ok.txt'), `${f}\n`);
        act(f);
        const out = await throughCommitPath(w, (p) => p === f);
        results.push({ name: `${f} / ${label}`, ...out });
        rmSync(join(w.path, f), { force: true });
        sh(w.path, 'checkout', '-q', 'HEAD', '--', '.gitignore');
        if (f.includes('/')) rmSync(join(w.path, dirname(f)), { recursive: true, force: true });
      }
    }
    tally('deleted ignore rules', results);
    expect(results.filter((r) => r.error !== undefined || r.inCommit || r.okMissing).map((r) => r.name)).toEqual([]);
  }, 300_000);

  it('gitPathProblem agrees with git (core.protectNTFS, core.protectHFS) on every generated path', () => {
    const repo = tempDir();
    sh(repo, 'init', '-q');
    const blob = sh(repo, 'hash-object', '-w', '--stdin');
    const near = ['.gitx', 'x.git', 'git~2', '.git~1', '.gi', 'git', '.gitignore', '.github', '.gitmodules'];
    const hfsInside = ['.github', '.gitignore'].flatMap((w) => HFS_IGNORED.map((ch) => w.slice(0, 3) + ch + w.slice(3)));
    const names = [...lookAlikeNames(), ...near, ...hfsInside];
    const paths = names.flatMap((n) => [`${n}/x`, `a/${n}/x`, `a/${n}`]);
    const disagree: string[] = [];
    for (const path of paths) {
      let gitRefuses = false;
      try {
        execFileSync(
          'git',
          ['-c', 'core.protectNTFS=true', '-c', 'core.protectHFS=true', 'update-index', '--add', '--cacheinfo', `100644,${blob},${path}`],
          { cwd: repo, stdio: 'pipe' },
        );
        execFileSync('git', ['rm', '-q', '--cached', '--', path], { cwd: repo, stdio: 'pipe' });
      } catch {
        gitRefuses = true;
      }
      if (gitRefuses !== (gitPathProblem(path) !== undefined)) disagree.push(JSON.stringify(path));
    }
    process.stdout.write(`git path rule: ${paths.length} paths put to git, ${disagree.length} judged otherwise\n`);
    expect(disagree).toEqual([]);
  });
});
