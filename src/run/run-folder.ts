import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunEvent } from '../agent/events.js';
import type { Evidence } from '../agent/evidence/types.js';
import { writeEvidence } from '../agent/evidence/evidence.js';
import { renderSummaryMd } from '../agent/evidence/summary-md.js';
import { renderReportHtml } from '../agent/evidence/report-html.js';
import type { HostPlace } from '../agent/evidence/host-paths.js';
import { redactText as redactSecrets, redactDeep as redactValue } from '../secrets/index.js';

/**
 * Write the run folder's rendered files. evidence.json first (it must exist whatever fails after it),
 * then summary.md, changes.diff and report.html. Everything the model could have influenced passes
 * through secret redaction: the PR body, the page and the evidence are as public as the transcript.
 */
export async function writeRunFolder(
  runDir: string,
  evidence: Evidence,
  events: readonly RunEvent[],
  diff: string,
  secrets: readonly string[],
  places: readonly HostPlace[] = [],
): Promise<{ evidence: Evidence; summaryMd: string }> {
  const safe = redactValue(evidence, secrets) as Evidence;
  await writeEvidence(runDir, safe);
  // The PR body names no path of this machine (the run's places: worktree, scratch, run folder, home, tmp).
  const summaryMd = renderSummaryMd(safe, { places });
  await writeFile(join(runDir, 'summary.md'), summaryMd);
  const safeDiff = diff ? redactSecrets(diff, secrets) : '';
  if (safeDiff) await writeFile(join(runDir, 'changes.diff'), safeDiff);
  await writeFile(join(runDir, 'report.html'), renderReportHtml(safe, redactValue(events, secrets) as RunEvent[], { diff: safeDiff }));
  return { evidence: safe, summaryMd };
}
