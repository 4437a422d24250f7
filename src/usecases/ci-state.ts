/**
 * Check runs + commit statuses of one sha → pending, none (nothing reported yet) or a final state.
 * proofpr's own check (CHECK_NAME, or any check its App created) is never part of "what CI said".
 */
import type { CheckRunInfo, CiCheck, CommitStatusInfo } from './ci-types.js';

export type CiSnapshot = { state: 'none' | 'pending' | 'passed' | 'failed'; checks: CiCheck[] };

const GREEN = new Set(['success', 'neutral', 'skipped']);

export function ciSnapshot(
  checkRuns: CheckRunInfo[],
  statuses: CommitStatusInfo[],
  own: { checkName: string; appSlug?: string },
): CiSnapshot {
  const runs = checkRuns.filter((c) => c.name !== own.checkName && (own.appSlug === undefined || c.app !== own.appSlug));
  const checks: CiCheck[] = [
    ...runs.map((c) => ({ name: c.name, conclusion: c.status === 'completed' ? (c.conclusion ?? 'neutral') : 'pending', url: c.url })),
    ...latestStatuses(statuses).map((s) => ({ name: s.context, conclusion: s.state === 'pending' ? 'pending' : s.state, url: s.url })),
  ];
  if (checks.length === 0) return { state: 'none', checks };
  if (checks.some((c) => c.conclusion === 'pending')) return { state: 'pending', checks };
  return { state: checks.every((c) => GREEN.has(c.conclusion)) ? 'passed' : 'failed', checks };
}

/** The Statuses API lists every status ever set, newest first: keep the newest per context. */
function latestStatuses(statuses: CommitStatusInfo[]): CommitStatusInfo[] {
  const seen = new Map<string, CommitStatusInfo>();
  for (const s of statuses) if (!seen.has(s.context)) seen.set(s.context, s);
  return [...seen.values()];
}
