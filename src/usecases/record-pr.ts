/**
 * `evidence.pr` (CONTRACT §5): once a PR is opened or updated for a run, its number and URL go into the
 * run's evidence.json, whichever host published it.
 */
import { writeEvidence } from '../agent/evidence/evidence.js';
import type { Evidence } from '../agent/evidence/types.js';

export async function recordPullRequest(runDir: string, evidence: Evidence, pr: { number: number; url: string }): Promise<Evidence> {
  const withPr: Evidence = { ...evidence, pr: { number: pr.number, url: pr.url } };
  await writeEvidence(runDir, withPr);
  return withPr;
}
