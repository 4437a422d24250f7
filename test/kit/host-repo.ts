/**
 * Small project repositories for the CLI and run tests: files written from a map, committed as `main` by a
 * fixed identity, and a PATH without chosen programs (a machine where pnpm or yarn is not installed).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

/** Writes each file of `files` under `dir` (folders made as needed); a value that is not a string is written as JSON. */
export function writeTree(dir: string, files: Record<string, unknown>): void {
  for (const [p, v] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), typeof v === 'string' ? v : JSON.stringify(v, null, 2));
  }
}

/** git with the tests' fixed identity, in `dir`. */
export function gitIn(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, encoding: 'utf8' });
}

/** `git init -b main` in `dir`, then one commit of everything in it. */
export function commitAll(dir: string): void {
  gitIn(dir, 'init', '-q', '-b', 'main');
  gitIn(dir, 'add', '-A');
  gitIn(dir, 'commit', '-q', '-m', 'init');
}

/**
 * PATH as this process has it, minus the programs `hide`: a folder holding one of them is mirrored under
 * `mirrorRoot` (links to everything else in it). `skip` leaves matching folders out altogether.
 */
export function pathWithout(hide: readonly string[], mirrorRoot: string, skip?: RegExp): string {
  const out: string[] = [];
  for (const [i, d] of (process.env.PATH ?? '').split(delimiter).entries()) {
    if (!d || !existsSync(d) || skip?.test(d)) continue;
    const names = readdirSync(d);
    if (!names.some((n) => hide.includes(n))) {
      out.push(d);
      continue;
    }
    const mirror = join(mirrorRoot, `path-${i}`);
    mkdirSync(mirror, { recursive: true });
    for (const n of names) if (!hide.includes(n)) symlinkSync(join(d, n), join(mirror, n));
    out.push(mirror);
  }
  return out.join(delimiter);
}

/** The package managers corepack provides: hidden to stand for a machine with only Node. */
export const COREPACK_TOOLS = ['pnpm', 'pnpx', 'yarn', 'yarnpkg'] as const;
