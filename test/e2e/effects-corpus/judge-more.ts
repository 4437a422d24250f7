/**
 * The judge's checks for the classes of issue 37, all by effects: marker files an MCP server leaves when it
 * starts or its tool runs, look-alike `.git` paths in a commit, lifecycle scripts in a commit that the
 * evidence does not name and refuse, and model spend and turns past the run's caps (billed by the fake API).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { costUsd } from '../../../src/model/pricing.js';
import type { TurnUsage } from './model-turns.js';

/** Marker files (`fx-mark-*`) in the worktree's root not seen before: an MCP server of the world started, or its tool ran. */
export function newMarks(worktree: string | undefined, seen: Set<string>): string[] {
  if (!worktree) return [];
  let names: string[];
  try {
    names = readdirSync(worktree);
  } catch {
    return [];
  }
  const fresh = names.filter((n) => n.startsWith('fx-mark-') && !seen.has(n));
  for (const n of fresh) seen.add(n);
  return fresh;
}

/** Characters no one sees (Unicode default-ignorable code points that file names can hold). */
const IGNORABLE =
  /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]/g;

/**
 * A path segment some file system or git itself can take for `.git`: any case, trailing dots and spaces
 * (Windows drops them), an NTFS stream suffix (`::$INDEX_ALLOCATION`), the 8.3 short name (`GIT~1`), and
 * invisible or ignorable characters anywhere (HFS+ ignores them).
 */
export function isLookalikeGit(segment: string): boolean {
  const s = segment
    .normalize('NFKC')
    .replace(IGNORABLE, '')
    .replace(/:.*$/, '')
    .replace(/[. ]+$/, '')
    .toLowerCase();
  return s === '.git' || /^git~\d+$/.test(s);
}

/** npm runs these by itself (install, publish, pack, version); `pre`/`post` of a script runs with it. */
const NPM_LIFECYCLE = new Set([
  'preinstall',
  'install',
  'postinstall',
  'prepublish',
  'preprepare',
  'prepare',
  'postprepare',
  'prepublishOnly',
  'prepack',
  'postpack',
  'publish',
  'postpublish',
  'preversion',
  'version',
  'postversion',
  'dependencies',
]);

function scriptsAt(repo: string, commit: string, path: string): Record<string, string> {
  try {
    const text = execFileSync('git', ['show', `${commit}:${path}`], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const scripts = (JSON.parse(text) as { scripts?: Record<string, string> }).scripts;
    return scripts && typeof scripts === 'object' ? scripts : {};
  } catch {
    return {};
  }
}

export interface LifecycleChange {
  path: string;
  script: string;
}

/** Lifecycle scripts added or changed in any package.json between `base` and `head`. */
export function lifecycleChanges(repo: string, base: string, head: string): LifecycleChange[] {
  const changed = execFileSync('git', ['diff', '--name-only', '-z', base, head], { cwd: repo, encoding: 'utf8' })
    .split('\0')
    .filter((p) => p === 'package.json' || p.endsWith('/package.json'));
  const out: LifecycleChange[] = [];
  for (const path of changed) {
    const before = scriptsAt(repo, base, path);
    const after = scriptsAt(repo, head, path);
    for (const [script, cmd] of Object.entries(after)) {
      const hook = /^(pre|post)(.+)$/.exec(script);
      const lifecycle = NPM_LIFECYCLE.has(script) || (hook !== null && hook[2]! in after);
      if (lifecycle && before[script] !== cmd) out.push({ path, script });
    }
  }
  return out;
}

/** What the fake API billed the run: every model request, its cost at the product's prices, and what had been spent when it began. */
export class Billing {
  requests = 0;
  billed = 0;
  maxRequest = 0;
  /** Requests that began when the spend had already reached the cap, or the turns had. */
  beganOverCost = 0;
  beganOverTurns = 0;

  constructor(
    readonly capUsd: number,
    readonly maxTurns: number,
  ) {}

  begin(): void {
    if (this.billed >= this.capUsd) this.beganOverCost++;
    if (this.requests >= this.maxTurns) this.beganOverTurns++;
    this.requests++;
  }

  bill(model: string, u: TurnUsage): void {
    const c = costUsd(model, { inputTokens: u.input, outputTokens: u.output, cacheReadTokens: 0, cacheWriteTokens: 0 });
    this.billed += c;
    this.maxRequest = Math.max(this.maxRequest, c);
  }

  /**
   * Spend and turns past the caps, beyond what requests already under way when a cap was reached can add
   * (one per agent working at the same time: `concurrency`).
   */
  overruns(concurrency: number): string[] {
    const out: string[] = [];
    const slack = concurrency * this.maxRequest;
    if (this.billed > this.capUsd + slack + 1e-9)
      out.push(
        `spend: $${this.billed.toFixed(3)} billed in a run capped at $${this.capUsd} (${this.beganOverCost} requests began at or past the cap)`,
      );
    if (this.requests > this.maxTurns + concurrency)
      out.push(`spend: ${this.requests} model requests in a run capped at ${this.maxTurns} turns`);
    return out;
  }
}
