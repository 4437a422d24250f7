import { stamp } from '../agent/events.js';
import { buildEvidence, type EvidenceFacts } from '../agent/evidence/evidence.js';
import { exitCodeFor } from '../agent/evidence/types.js';
import type { Workspace } from './prepare-workspace.js';
import type { RunOutcome } from './run-outcome.js';
import type { RunRecord } from './run-record.js';
import type { RunTaskInput, RunTaskResult } from './run-task-types.js';
import { writeRunFolder } from './run-folder.js';
import { worldMasked } from '../workspace/world.js';
import { hostPlaces } from '../agent/evidence/host-paths.js';

/** What the run folder needs beyond the outcome. */
export interface RunFacts {
  startedAt: string;
  ws: Workspace | undefined;
  sandbox: 'bwrap' | 'none' | undefined;
  sandboxReason?: string;
  test?: EvidenceFacts['test'];
  setup?: EvidenceFacts['setup'];
  /** The readiness run of the test command on the base. */
  baseline?: EvidenceFacts['baseline'];
}

/** Step 6: the run_end event, the run folder (evidence.json, summary.md, changes.diff, report.html) and the result. */
export async function writeResult(input: RunTaskInput, rec: RunRecord, facts: RunFacts, outcome: RunOutcome): Promise<RunTaskResult> {
  rec.record(stamp({ type: 'run_end', verdict: outcome.verdict, reason: outcome.reason }));
  const events = rec.ledger.events();
  const evidence = buildEvidence(events, evidenceFacts(input, facts, outcome));
  const places = hostPlaces({
    ...(facts.ws ? { worktree: facts.ws.wt.path, scratch: facts.ws.runTmp, hidden: facts.ws.hidePaths } : {}),
    ...(facts.ws?.mirror ? {} : { checkout: input.repoDir }),
    runDir: input.runDir,
  });
  const written = await writeRunFolder(input.runDir, evidence, events, outcome.diff, rec.secrets, places);
  return {
    evidence: written.evidence,
    exitCode: exitCodeFor(outcome.verdict),
    runDir: input.runDir,
    branch: input.branch,
    ...(outcome.headSha ? { headSha: outcome.headSha } : {}),
    wip: outcome.wip,
    summaryMd: written.summaryMd,
    places,
  };
}

function evidenceFacts(input: RunTaskInput, facts: RunFacts, outcome: RunOutcome): EvidenceFacts {
  const t = input.task;
  return {
    runId: input.runId,
    startedAt: facts.startedAt,
    endedAt: new Date().toISOString(),
    verdict: outcome.verdict,
    reason: outcome.reason,
    task: { kind: t.kind, title: t.title, ...(t.issue !== undefined ? { issue: t.issue } : {}), ...(t.sweep ? { sweep: t.sweep } : {}) },
    repo: {
      ...(input.repoFullName ? { fullName: input.repoFullName } : { path: input.repoDir }),
      baseSha: facts.ws?.wt.baseSha ?? '',
      branch: input.branch,
      ...(outcome.headSha ? { headSha: outcome.headSha } : {}),
    },
    filesChanged: outcome.filesChanged,
    ...(facts.sandbox ? { sandbox: facts.sandbox } : {}),
    ...(facts.sandboxReason ? { sandboxReason: facts.sandboxReason } : {}),
    ...(facts.test ? { test: facts.test } : {}),
    ...(facts.setup ? { setup: facts.setup } : {}),
    ...(facts.baseline ? { baseline: facts.baseline } : {}),
    ...(outcome.leftOut?.length ? { leftOut: outcome.leftOut } : {}),
    ...(outcome.infrastructureChanges?.length ? { infrastructureChanges: outcome.infrastructureChanges } : {}),
    ...(facts.ws ? { masked: worldMasked(facts.ws.wt.path) } : {}),
    model: input.modelId,
  };
}
