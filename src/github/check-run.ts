/** The check run on the PR head: conclusion and text from the evidence and summary.md. */
import type { Evidence } from '../agent/evidence/types.js';
import type { CheckConclusion } from './port.js';

export const CHECK_NAME = 'proofpr';

export function checkRunFor(
  evidence: Evidence,
  summaryMd: string,
): { name: string; conclusion: CheckConclusion; title: string; summary: string } {
  const conclusion: CheckConclusion =
    evidence.verdict === 'verified' ? 'success' : evidence.verdict === 'aborted' ? 'cancelled' : 'failure';
  const passed = evidence.gates.filter((g) => g.passed).length;
  return {
    name: CHECK_NAME,
    conclusion,
    title: `${evidence.verdict}: ${passed}/${evidence.gates.length} gates passed`,
    // The Checks API caps the summary at 65535 characters.
    summary: summaryMd.length > 65000 ? `${summaryMd.slice(0, 65000)}\n\n…(cut)` : summaryMd,
  };
}
