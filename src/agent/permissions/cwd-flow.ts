import { statSync } from 'node:fs';
import type { Flow, SimpleCommand } from './bash-analysis.js';
import { resolveInside } from './path-jail.js';

export interface CwdMap {
  /** Folders each command (by index) may start in. */
  commands: Set<string>[];
  /** Folders each redirect (by index) may be opened in. */
  redirects: Set<string>[];
}

type State = { ok: Set<string>; failed: Set<string> };

const union = (...xs: Set<string>[]): Set<string> => new Set(xs.flatMap((x) => [...x]));

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function commandsIn(f: Flow): number[] {
  switch (f.t) {
    case 'cmd':
      return [f.i];
    case 'seq':
      return f.items.flatMap(commandsIn);
    case 'and':
    case 'or':
      return [...commandsIn(f.l), ...commandsIn(f.r)];
    case 'pipe':
      return f.parts.flatMap(commandsIn);
    case 'sub':
    case 'loop':
    case 'not':
    case 'redir':
      return commandsIn(f.body);
  }
}

/** `cd [-L|-P|-e|-@] [--] DIR` → DIR (literal), or undefined when this is not such a cd. */
function cdTarget(c: SimpleCommand): string | undefined {
  if (c.words[0]?.value !== 'cd') return undefined;
  const args = c.words.slice(1).map((w) => w.value);
  let i = 0;
  while (i < args.length && /^-[LPe@]+$/.test(args[i] ?? '')) i++;
  if (args[i] === '--') i++;
  const t = args[i];
  return t === null || t === undefined || t === '-' ? undefined : t;
}

/** Where a `cd t` run from each folder of `s` leads (ok) and the folders it may fail in; adds the targets to `seen`. */
function followCd(t: string, s: Set<string>, root: string, gitDirs: readonly string[], seen: Set<string>): State {
  const ok = new Set<string>();
  const failed = new Set<string>();
  for (const d of s) {
    // A cd into a linked dependency folder leads there: what follows is checked from its real path (read-only).
    const r = resolveInside(root, t, { gitDirs, cwd: d, linked: true });
    if (!r.ok) {
      failed.add(d); // refused anyway (the cd is checked against every folder it may run in)
      continue;
    }
    ok.add(r.abs);
    seen.add(r.abs);
    if (!isDir(r.abs)) failed.add(d);
  }
  return { ok, failed };
}

/**
 * The folders each command of a line may run in, following `cd` through `&&`, `||`, `;`, pipelines
 * (their parts run in subshells), subshells (a `cd` inside does not leak) and loops, so `cd src && ls
 * && cd ..` is read as it runs. A `cd` into an existing folder succeeds; into a missing one it may
 * fail (the line may create it first), so both folders stay possible. A command no path reaches is
 * checked against every folder seen (never against none).
 */
export function followCwd(
  flow: Flow,
  commands: readonly SimpleCommand[],
  redirectCount: number,
  root: string,
  gitDirs: readonly string[],
): CwdMap {
  const map: CwdMap = {
    commands: commands.map(() => new Set()),
    redirects: Array.from({ length: redirectCount }, () => new Set<string>()),
  };
  const seen = new Set<string>([root]);
  const run = (f: Flow, s: Set<string>): State => {
    for (const d of s) seen.add(d);
    switch (f.t) {
      case 'cmd': {
        for (const d of s) map.commands[f.i]?.add(d);
        const c = commands[f.i];
        const t = c ? cdTarget(c) : undefined;
        return t === undefined ? { ok: s, failed: s } : followCd(t, s, root, gitDirs, seen);
      }
      case 'seq': {
        let cur: State = { ok: s, failed: new Set() };
        let input = s;
        for (const x of f.items) {
          cur = run(x, input);
          input = union(cur.ok, cur.failed);
        }
        return cur;
      }
      case 'and': {
        const l = run(f.l, s);
        const r = run(f.r, l.ok);
        return { ok: r.ok, failed: union(l.failed, r.failed) };
      }
      case 'or': {
        const l = run(f.l, s);
        const r = run(f.r, l.failed);
        return { ok: union(l.ok, r.ok), failed: r.failed };
      }
      case 'pipe':
        for (const p of f.parts) run(p, s);
        return { ok: s, failed: s };
      case 'sub':
        run(f.body, s);
        return { ok: s, failed: s };
      case 'not': {
        const r = run(f.body, s);
        return { ok: r.failed, failed: r.ok };
      }
      case 'redir': {
        // tree-sitter reads `cd x && echo > f` as `(cd x && echo) > f`: a redirect may belong to any command of its body.
        const r = run(f.body, s);
        const inBody = commandsIn(f.body).flatMap((i) => [...(map.commands[i] ?? [])]);
        for (const i of f.redirects) for (const d of [...s, ...r.ok, ...r.failed, ...inBody]) map.redirects[i]?.add(d);
        return r;
      }
      case 'loop': {
        let cur = s;
        for (let k = 0; k < 4; k++) {
          const r = run(f.body, cur);
          const next = union(cur, r.ok, r.failed);
          if (next.size === cur.size) break;
          cur = next;
        }
        return { ok: cur, failed: cur };
      }
    }
  };
  run(flow, new Set([root]));
  for (const set of [...map.commands, ...map.redirects]) if (set.size === 0) for (const d of seen) set.add(d);
  return map;
}
