/** The config file proofpr reads from a repository's default branch (CONTRACT §1). */
const CONFIG_PATH = '.github/proofpr.yml';

interface PushPayload {
  ref?: string;
  forced?: boolean;
  deleted?: boolean;
  repository?: { default_branch?: string };
  commits?: Array<{ added?: string[]; modified?: string[]; removed?: string[] }>;
  head_commit?: { added?: string[]; modified?: string[]; removed?: string[] } | null;
}

/**
 * Does this `push` webhook change `.github/proofpr.yml` on the default branch? Read from the payload
 * alone (no API call). When the payload's commit list cannot be trusted to be complete (a forced push,
 * no commits listed, or a long list GitHub may have cut), the answer is yes: a needless fresh read of the
 * config is cheap, a stale schedule is not.
 */
export function pushChangesConfig(payload: unknown): boolean {
  const p = payload as PushPayload;
  const branch = p.repository?.default_branch;
  if (!branch || p.ref !== `refs/heads/${branch}`) return false;
  const commits = [...(p.commits ?? []), ...(p.head_commit ? [p.head_commit] : [])];
  if (p.forced === true || p.deleted === true || (p.commits ?? []).length === 0 || (p.commits ?? []).length >= 20) return true;
  return commits.some((c) => [...(c.added ?? []), ...(c.modified ?? []), ...(c.removed ?? [])].includes(CONFIG_PATH));
}
