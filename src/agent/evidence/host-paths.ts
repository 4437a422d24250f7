/**
 * The PR body names no host path (issue 38). A run's text (an agent's command, a refusal, a hook's
 * output, a finding, a kept run's output) can hold absolute paths of the machine it ran on; they mean
 * nothing to a reviewer and say where proofpr keeps its state. The places such a path can be under are
 * the run's own: its worktree and the checkout it came from (written repository-relative), its scratch
 * folder (HOME and TMPDIR of the sandboxed processes), its run folder, proofpr's state, the machine's home
 * and temp folder. renderSummaryMd passes the whole evidence through `withoutHostPaths` before it renders
 * any section, so no section (nor one added later) can let one through.
 */
import { realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';

/** A place on the host and what the PR body writes in its stead ('' = repository-relative). */
export interface HostPlace {
  path: string;
  as: string;
}

export interface RunPlaces {
  /** The run's worktree: its paths are written repository-relative. */
  worktree?: string;
  /** The checkout the worktree was made from (a CLI or Action run): repository-relative too. */
  checkout?: string;
  /** The run's scratch folder (HOME and TMPDIR of the sandboxed processes, the harness's clean checkouts). */
  scratch?: string;
  /** The run folder. */
  runDir?: string;
  /** What the sandbox hides besides (proofpr's state, the real home, the checkout's git dir). */
  hidden?: readonly string[];
}

/** `p` and its real path, when they differ (a temp folder behind a symlink). */
function withReal(p: string): string[] {
  try {
    const real = realpathSync(p);
    return real === p ? [p] : [p, real];
  } catch {
    return [p];
  }
}

/** The run's places, the machine's home and temp folder included, longest first (the most specific wins). */
export function hostPlaces(run: RunPlaces): HostPlace[] {
  const named: Array<[string | undefined, string]> = [
    [run.worktree, ''],
    [run.checkout, ''],
    [run.scratch, '<scratch>'],
    [run.runDir, '<run>'],
    [homedir(), '~'],
    ...(run.hidden ?? []).map((h): [string, string] => [h, '<host>']),
    [tmpdir(), '<tmp>'],
  ];
  const out: HostPlace[] = [];
  for (const [p, as] of named) {
    if (!p || !p.startsWith('/') || p === '/') continue;
    for (const path of withReal(p.replace(/\/+$/, ''))) if (!out.some((o) => o.path === path)) out.push({ path, as });
  }
  return out.sort((a, b) => b.path.length - a.path.length);
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `text` with every absolute path under a place rewritten: under a repository place relative to it (the
 * place itself as `.`), under another place as its name (`<scratch>/home/x`). A path is one when the place
 * starts it (not a path character before it) and ends there or goes on with `/`.
 */
export function withoutHostPathsText(text: string, places: readonly HostPlace[]): string {
  const present = places.filter((p) => text.includes(p.path));
  if (present.length === 0) return text;
  // One pass over one alternation, longest place first: a name written in never matches again.
  const re = new RegExp(`(^|[^\\w.~/-])(${present.map((p) => escape(p.path)).join('|')})(/|(?![\\w.-]))`, 'g');
  return text.replace(re, (_m, before: string, path: string, after: string) => {
    const as = present.find((p) => p.path === path)?.as ?? '';
    if (as !== '') return `${before}${as}${after}`;
    return after === '/' ? before : `${before}.`;
  });
}

/** Every string in `value` (objects and arrays walked) through withoutHostPathsText; other values as they are. */
export function withoutHostPaths<T>(value: T, places: readonly HostPlace[]): T {
  if (places.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return withoutHostPathsText(v, places);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
