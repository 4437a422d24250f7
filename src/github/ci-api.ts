/**
 * CiPort over Octokit's `request` (Probot's or @octokit/rest's): check runs, commit statuses, workflow
 * runs and jobs, job logs (Actions API) and the workflow files' triggers, for one repository.
 */
import { parse as parseYaml } from 'yaml';
import type { CheckRunInfo, CiPort, CommitStatusInfo, WorkflowJobInfo, WorkflowRunInfo } from './ci-port.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
export type RequestFn = (route: string, params?: Record<string, unknown>) => Promise<{ data: unknown }>;

const status = (e: unknown): number | undefined => (e as { status?: number }).status;

/** The event names a workflow's `on:` lists (a string, a list, or a mapping). */
export function workflowEvents(text: string): string[] {
  let doc: Json;
  try {
    doc = parseYaml(text);
  } catch {
    return [];
  }
  const on: unknown = doc?.on ?? doc?.true;
  if (typeof on === 'string') return [on];
  if (Array.isArray(on)) return on.filter((x): x is string => typeof x === 'string');
  if (on && typeof on === 'object') return Object.keys(on);
  return [];
}

export function createCiApi(request: RequestFn, r: { owner: string; repo: string }): CiPort {
  return {
    async listCheckRuns(sha): Promise<CheckRunInfo[]> {
      const { data } = await request('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', { ...r, ref: sha, per_page: 100 });
      return ((data as Json).check_runs as Json[]).map((c) => ({
        id: c.id,
        name: c.name,
        status: c.status,
        conclusion: c.conclusion ?? null,
        url: c.html_url ?? c.details_url ?? '',
        ...(c.app?.slug ? { app: c.app.slug } : {}),
      }));
    },
    async listCommitStatuses(sha): Promise<CommitStatusInfo[]> {
      const { data } = await request('GET /repos/{owner}/{repo}/commits/{ref}/statuses', { ...r, ref: sha, per_page: 100 });
      return (data as Json[]).map((s) => ({ context: s.context, state: s.state, url: s.target_url ?? '' }));
    },
    async listWorkflowRuns(sha): Promise<WorkflowRunInfo[]> {
      const { data } = await request('GET /repos/{owner}/{repo}/actions/runs', { ...r, head_sha: sha, per_page: 50 });
      return ((data as Json).workflow_runs as Json[]).map((w) => ({
        id: w.id,
        name: w.name ?? String(w.id),
        event: w.event,
        status: w.status,
        conclusion: w.conclusion ?? null,
        url: w.html_url ?? '',
        createdAt: w.created_at ?? '',
        headSha: w.head_sha,
      }));
    },
    async listWorkflowJobs(runId): Promise<WorkflowJobInfo[]> {
      const { data } = await request('GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs', { ...r, run_id: runId, per_page: 100 });
      return ((data as Json).jobs as Json[]).map((j) => ({
        id: j.id,
        name: j.name,
        conclusion: j.conclusion ?? null,
        url: j.html_url ?? '',
        steps: ((j.steps ?? []) as Json[]).map((s) => ({ name: s.name, number: s.number, conclusion: s.conclusion ?? null })),
      }));
    },
    async jobLog(jobId) {
      const { data } = await request('GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs', { ...r, job_id: jobId });
      return typeof data === 'string'
        ? data
        : Buffer.isBuffer(data)
          ? data.toString('utf8')
          : data instanceof ArrayBuffer
            ? Buffer.from(data).toString('utf8')
            : String(data ?? '');
    },
    async workflowTriggers(ref) {
      let list: Json[];
      try {
        list = (await request('GET /repos/{owner}/{repo}/contents/{path}', { ...r, path: '.github/workflows', ref })).data as Json[];
      } catch (e) {
        if (status(e) === 404) return [];
        return undefined;
      }
      const files = (Array.isArray(list) ? list : []).filter((f) => f.type === 'file' && /\.ya?ml$/.test(f.name));
      const out: Array<{ path: string; events: string[] }> = [];
      for (const f of files) {
        const { data } = await request('GET /repos/{owner}/{repo}/contents/{path}', { ...r, path: f.path, ref });
        const text =
          typeof (data as Json).content === 'string' ? Buffer.from((data as Json).content, 'base64').toString('utf8') : String(data);
        out.push({ path: f.path, events: workflowEvents(text) });
      }
      return out;
    },
    async pullRequestBody(number) {
      const { data } = await request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...r, pull_number: number });
      return ((data as Json).body as string | null) ?? '';
    },
  };
}
