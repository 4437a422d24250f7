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
  // An advisory gate found what it looks for without blocking: counted apart, never as passed.
  const advisory = evidence.gates.filter((g) => g.advisory).length;
  const passed = evidence.gates.filter((g) => g.passed && !g.advisory).length;
  return {
    name: CHECK_NAME,
    conclusion,
    title: `${evidence.verdict}: ${passed}/${evidence.gates.length} gates passed${advisory ? `, ${advisory} advisory (found, not blocking)` : ''}`,
    // The Checks API caps the summary at 65535 characters.
    summary: summaryMd.length > 65000 ? `${summaryMd.slice(0, 65000)}\n\n…(cut)` : summaryMd,
  };
}

/** The check `proofpr verify` posts on a pull request's head (CONTRACT §11): branch protection can require it. */
export const VERIFIED_CHECK_NAME = 'proofpr/verified';

const cap = <T>(items: readonly T[], n: number, line: (t: T) => string): string[] => [
  ...items.slice(0, n).map(line),
  ...(items.length > n ? [`- …and ${items.length - n} more (evidence.json)`] : []),
];

/** The counts of the harness's final run on the head (the one the gates judged), when it has them. */
function finalCounts(evidence: Evidence): string {
  const final = [...evidence.testRuns].reverse().find((r) => r.kind === 'final');
  const c = final?.counts;
  if (!c) return 'the final run on the head gave no test counts';
  return `${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped of ${c.total} (the final run on the head)`;
}

/** The check's sections: verdict, counts, changed expectations, untested hunks and flaky tests (each when the evidence has them). */
function verifiedSections(evidence: Evidence): string[] {
  const out = [`**${evidence.verdict}**: ${evidence.reason}`, '', `Tests: ${finalCounts(evidence)}.`];
  const failed = evidence.gates.filter((g) => !g.passed);
  if (failed.length) out.push('', '### Gates that failed', ...failed.map((g) => `- \`${g.name}\`: ${g.detail.split('\n')[0] ?? ''}`));
  const changed = evidence.changedExpectations ?? [];
  if (changed.length)
    out.push(
      '',
      `### Changed expectations (${changed.length}): base tests this change makes fail or drops, for review`,
      ...cap(changed, 20, (c) => `- \`${c.test}\`${c.kind && c.kind !== 'changed' ? ` (${c.kind})` : ''}`),
    );
  // Untested hunks and flaky tests come from their own modules' evidence fields; shown whenever present.
  const hunks = evidence.untestedHunks ?? [];
  if (hunks.length)
    out.push(
      '',
      `### Untested hunks (${hunks.length}): no test exercises these changes`,
      ...cap(hunks, 20, (h) => `- \`${h.file}\` lines ${h.startLine}–${h.endLine}`),
    );
  const flaky = evidence.flaky ?? [];
  if (flaky.length)
    out.push(
      '',
      `### Flaky tests (${flaky.length}): passed and failed on the same tree, not counted as failures`,
      ...cap(flaky, 20, (f) => `- \`${f.test}\` (${f.failures} of ${f.runs} runs failed)`),
    );
  return out;
}

/** The `proofpr/verified` check run for `proofpr verify`'s evidence on a pull request's head. */
export function verifiedCheckRunFor(
  evidence: Evidence,
  summaryMd: string,
): { name: string; conclusion: CheckConclusion; title: string; summary: string } {
  const base = checkRunFor(evidence, summaryMd);
  const head = verifiedSections(evidence).join('\n').slice(0, 30000);
  // The Checks API caps the summary at 65535 characters: the folded summary.md is cut to what is left.
  const room = 64000 - head.length;
  const md = summaryMd.length > room ? `${summaryMd.slice(0, room)}\n\n…(cut)` : summaryMd;
  return { ...base, name: VERIFIED_CHECK_NAME, summary: `${head}\n\n<details><summary>Full evidence</summary>\n\n${md}\n\n</details>` };
}
