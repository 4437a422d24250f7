/** A direct task (`prompt` input, e.g. workflow_dispatch): the usecase runs and publishes; this host only maps its outcome to the step's outputs. */
import { join } from 'node:path';
import type { RepoConfig } from '../../config/repo-config.js';
import { runPromptTask, type PromptTaskDeps } from '../../usecases/prompt-task.js';
import type { ActionContext } from './context.js';
import type { ActionResult } from './result.js';

export interface PromptFlowDeps extends PromptTaskDeps {
  modelId: string;
  evidencePath: (absolute: string) => string;
}

export async function promptFlow(ctx: ActionContext, config: RepoConfig, prompt: string, deps: PromptFlowDeps): Promise<ActionResult> {
  const { run, branch, published } = await runPromptTask(
    { prompt, config, repoDir: ctx.workspace, home: ctx.home, modelId: deps.modelId, ...(ctx.refBranch ? { prBase: ctx.refBranch } : {}) },
    deps,
  );
  const ev = run.evidence;
  const pr = published.pr;
  const where = pr ? ` → ${pr.url}` : published.wipRef ? ` → work kept at ${published.wipRef}` : '';
  return {
    exitCode: run.exitCode,
    outputs: {
      verdict: ev.verdict,
      branch: branch ?? '',
      pr_number: pr ? String(pr.number) : '',
      pr_url: pr?.url ?? '',
      evidence_path: deps.evidencePath(join(run.runDir, 'evidence.json')),
    },
    summaryMd: published.summaryMd || run.summaryMd,
    message: `prompt task: ${ev.verdict} (${ev.reason})${where}`,
  };
}
