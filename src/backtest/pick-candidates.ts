/**
 * The walk's first filter (docs/backtest.md): from HEAD back over at most `scan` non-merge commits, the
 * ones that change at least one test file and at least one code file that is not a test, and no
 * dependency manifest or lock file. Whether the test change fails on the parent is checked later
 * (qualify-case.ts), by running the tests.
 */
import { isTestFile } from '../agent/verification/changes/test-files.js';
import { changedPaths } from './file-changes.js';
import { git } from './git.js';
import type { SkippedCommit } from './types.js';

const CODE = /\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|scala|rb|cs|php|swift|exs?|c|cc|cpp|h|hpp|dart|lua|sh)$/i;
const MANIFEST =
  /(?:^|\/)(?:package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|pyproject\.toml|setup\.py|setup\.cfg|requirements[^/]*\.txt|Pipfile(?:\.lock)?|poetry\.lock|uv\.lock|go\.mod|go\.sum|Cargo\.toml|Cargo\.lock|Gemfile(?:\.lock)?)$/;

export interface Candidate {
  commit: string;
  parent: string;
  subject: string;
  /** The whole commit message (the issue text of a --model run). */
  message: string;
  code: string[];
  tests: string[];
}

/** Why a commit's changed paths do not make a candidate, or undefined when they do. */
export function pathsRule(paths: readonly string[]): string | undefined {
  const tests = paths.filter((p) => isTestFile(p));
  const manifests = paths.filter((p) => MANIFEST.test(p));
  if (manifests.length) return `changes a dependency manifest or lock file (${manifests.slice(0, 3).join(', ')})`;
  if (!tests.length) return 'changes no test file';
  if (!paths.some((p) => !tests.includes(p) && CODE.test(p))) return 'changes no code outside the tests';
  return undefined;
}

/** The candidates, newest first, and every commit passed over with the rule it failed. */
export function pickCandidates(repo: string, scan: number): { candidates: Candidate[]; skipped: SkippedCommit[] } {
  const log = git(repo, ['log', '--no-merges', `--max-count=${scan}`, '--format=%H %P%x00%s%x00%B%x1e', 'HEAD']);
  const candidates: Candidate[] = [];
  const skipped: SkippedCommit[] = [];
  for (const rec of log.split('\x1e')) {
    const [ids = '', subject = '', message = ''] = rec.replace(/^\n/, '').split('\x00');
    const [commit, parent] = ids.split(' ');
    if (!commit) continue;
    if (!parent) {
      skipped.push({ commit, subject, why: 'the root commit (no parent to start from)' });
      continue;
    }
    const paths = changedPaths(repo, parent, commit);
    const why = pathsRule(paths);
    if (why) skipped.push({ commit, subject, why });
    else {
      const tests = paths.filter((p) => isTestFile(p));
      candidates.push({ commit, parent, subject, message: message.trim(), code: paths.filter((p) => !tests.includes(p)), tests });
    }
  }
  return { candidates, skipped };
}
