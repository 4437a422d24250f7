/** `mode: sweep` or a schedule event: the configured sweeps on the checkout, one summary section each. */
import type { RepoConfig } from '../../config/repo-config.js';
import type { ModelClient } from '../../model/model-client.js';
import type { WorkspacePort } from '../../usecases/ports.js';
import type { RunTask } from '../../run/run-task-types.js';
import { runSweeps, sweepExitCode, type SweepGitHub } from '../../usecases/sweep.js';
import type { BaselineRunner } from '../../usecases/sweep-baseline.js';
import type { ActionContext } from './context.js';
import type { ActionResult } from './result.js';

export interface SweepFlowDeps {
  github: SweepGitHub & { getDefaultBranch(): Promise<string> };
  workspace: Pick<WorkspacePort, 'pushBranch'>;
  model: ModelClient;
  runTask: RunTask;
  modelId: string;
  baseline?: BaselineRunner;
  evidencePath: (absolute: string) => string;
}

export async function sweepFlow(ctx: ActionContext, config: RepoConfig, deps: SweepFlowDeps): Promise<ActionResult> {
  const schedule = typeof ctx.payload.schedule === 'string' ? ctx.payload.schedule : undefined;
  const outcomes = await runSweeps(
    {
      repoDir: ctx.workspace,
      baseRef: 'HEAD',
      prBase: ctx.refBranch ?? (await deps.github.getDefaultBranch()),
      config,
      ...(schedule ? { schedule } : {}),
      modelId: deps.modelId,
      home: ctx.home,
      repoFullName: `${ctx.owner}/${ctx.repo}`,
    },
    {
      runTask: deps.runTask,
      model: deps.model,
      github: deps.github,
      workspace: deps.workspace,
      ...(deps.baseline ? { baseline: deps.baseline } : {}),
    },
  );
  // Outputs describe the first sweep that opened or updated a PR, else the first sweep.
  const main = outcomes.find((o) => o.pr) ?? outcomes[0];
  const summaryMd = outcomes.map((o) => [`# proofpr sweep \`${o.name}\``, '', o.reason, '', o.summaryMd].join('\n')).join('\n');
  return {
    exitCode: sweepExitCode(outcomes),
    outputs: {
      verdict: main?.verdict ?? 'skipped',
      branch: main?.pr ? (main.branch ?? '') : '',
      pr_number: main?.pr ? String(main.pr.number) : '',
      pr_url: main?.pr?.url ?? '',
      evidence_path: main?.evidencePath ? deps.evidencePath(main.evidencePath) : '',
    },
    summaryMd,
    message: outcomes.map((o) => `sweep ${o.name}: ${o.verdict}: ${o.reason}`).join('\n'),
  };
}
