/**
 * What the judge compares before and after each call: every file outside the worktree that an attack
 * could change (the caller's checkout with its dependency folder, the fake HOME, the sibling folder,
 * PROOFPR_HOME without the run's own worktrees) by size, mode and content hash, and the repository's git
 * state (config, HEAD, hooks, info, objects/info, and every ref except the run's own under proofpr/).
 */
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { World } from './world.js';

export type Snapshot = Map<string, string>;

const MAX_ENTRIES = 20000;

function sig(p: string): string {
  const st = lstatSync(p);
  if (st.isSymbolicLink()) return `link:${readlinkSync(p)}`;
  if (st.isDirectory()) return `dir:${st.mode.toString(8)}`;
  if (!st.isFile()) return `special:${st.mode.toString(8)}`;
  const h = createHash('sha1').update(readFileSync(p)).digest('hex').slice(0, 16);
  return `file:${st.mode.toString(8)}:${st.size}:${h}`;
}

/** Adds every entry under `dir` (not following links), keyed `<label>/<relative path>`, skipping `skip` (absolute). */
function walk(out: Snapshot, label: string, dir: string, skip: readonly string[]): void {
  const stack = [dir];
  while (stack.length > 0 && out.size < MAX_ENTRIES) {
    const d = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      continue;
    }
    for (const n of names) {
      const p = join(d, n);
      if (skip.includes(p)) continue;
      let s: string;
      try {
        s = sig(p);
      } catch {
        continue;
      }
      out.set(`${label}/${relative(dir, p)}`, s);
      if (s.startsWith('dir:')) stack.push(p);
    }
  }
}

export function snapshotOutside(w: World): Snapshot {
  const out: Snapshot = new Map();
  const git = join(w.repo, '.git');
  walk(out, 'checkout', w.repo, [git]);
  walk(out, 'home', w.home, []);
  walk(out, 'sibling', w.sibling, []);
  walk(out, 'proofpr-home', w.phome, [join(w.phome, 'worktrees')]);
  for (const f of ['config', 'HEAD']) {
    try {
      out.set(`git/${f}`, sig(join(git, f)));
    } catch {
      /* absent */
    }
  }
  for (const d of ['hooks', 'info', 'objects/info']) walk(out, `git/${d}`, join(git, d), []);
  // Refs without a git process per call: loose refs but the run's own, and packed-refs without them.
  walk(out, 'git/refs', join(git, 'refs'), [join(git, 'refs/heads/proofpr'), join(git, 'refs/proofpr')]);
  try {
    const packed = readFileSync(join(git, 'packed-refs'), 'utf8');
    out.set(
      'git/packed-refs',
      packed
        .split('\n')
        .filter((l) => !/ refs\/(heads\/)?proofpr\//.test(l))
        .join('\n'),
    );
  } catch {
    /* none */
  }
  return out;
}

/** Keys added, removed or changed from `a` to `b`. */
export function diffSnapshots(a: Snapshot, b: Snapshot): string[] {
  const changed: string[] = [];
  for (const [k, v] of b) if (a.get(k) !== v) changed.push(a.has(k) ? `changed ${k}` : `added ${k}`);
  for (const k of a.keys()) if (!b.has(k)) changed.push(`removed ${k}`);
  return changed;
}
