/** ChecksPort over REST. */
import type { ChecksPort } from '../port.js';
import { logger } from '../../log.js';
import { httpStatus, repoParams, type PortContext } from './rest-octokit.js';

const log = logger('github-port');

export function checkMethods(ctx: PortContext): ChecksPort {
  const r = repoParams(ctx);
  return {
    async createCheckRun(run) {
      const params = {
        ...r,
        name: run.name,
        head_sha: run.headSha,
        status: 'completed' as const,
        conclusion: run.conclusion,
        output: { title: run.title, summary: run.summary },
      };
      try {
        await ctx.octokit.rest.checks.create(run.detailsUrl ? { ...params, details_url: run.detailsUrl } : params);
      } catch (e) {
        // A workflow token without `checks: write` (or an App without the Checks permission) cannot create
        // check runs. The PR is already open and its body carries the evidence: the run does not fail for it.
        if (httpStatus(e) !== 403) throw e;
        log.warn({ repo: `${ctx.owner}/${ctx.repo}` }, 'check run not created: the token lacks `checks: write`');
      }
    },
  };
}
