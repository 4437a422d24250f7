/** The CI side of the GitHub stand-in: check runs, commit statuses, Actions runs/jobs/logs, workflow files. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
type Reply = [number, unknown, Record<string, string>?];

export interface CiFakeOptions {
  /** CI of a sha, asked on every request (so it may change as a test goes on). */
  ci?: (sha: string) => { check_runs?: Json[]; statuses?: Json[]; workflow_runs?: Json[] };
  /** Workflow files (path → YAML) under .github/workflows. */
  workflows?: Record<string, string>;
  /** Actions jobs per workflow run id, and plain-text logs per job id. */
  jobs?: Record<string, Json[]>;
  logs?: Record<string, string>;
}

const notFound: Reply = [404, { message: 'Not Found' }];

/** GET …/contents/<path> for the workflow folder and files; undefined for other paths. */
export function workflowContents(opts: CiFakeOptions, path: string): Reply | undefined {
  if (path === '.github/workflows') {
    const files = Object.keys(opts.workflows ?? {});
    return files.length === 0 ? notFound : [200, files.map((f) => ({ type: 'file', name: f.split('/').pop(), path: f }))];
  }
  if (!path.startsWith('.github/workflows/')) return undefined;
  const text = opts.workflows?.[path];
  return text === undefined ? notFound : [200, { type: 'file', path, encoding: 'base64', content: Buffer.from(text).toString('base64') }];
}

/** `p` is the path under /repos/{owner}/{repo}. */
export function ciRoute(opts: CiFakeOptions, method: string, p: string, url: URL): Reply | undefined {
  if (method !== 'GET') return undefined;
  let m: RegExpExecArray | null;
  if ((m = /^\/commits\/([0-9a-f]+)\/check-runs$/.exec(p))) {
    const runs = opts.ci?.(m[1] as string).check_runs ?? [];
    return [200, { total_count: runs.length, check_runs: runs }];
  }
  if ((m = /^\/commits\/([0-9a-f]+)\/statuses$/.exec(p))) return [200, opts.ci?.(m[1] as string).statuses ?? []];
  if (p === '/actions/runs') {
    const runs = opts.ci?.(url.searchParams.get('head_sha') ?? '').workflow_runs ?? [];
    return [200, { total_count: runs.length, workflow_runs: runs }];
  }
  if ((m = /^\/actions\/runs\/(\d+)\/jobs$/.exec(p))) {
    const jobs = opts.jobs?.[m[1] as string] ?? [];
    return [200, { total_count: jobs.length, jobs }];
  }
  if ((m = /^\/actions\/jobs\/(\d+)\/logs$/.exec(p))) {
    const log = opts.logs?.[m[1] as string];
    return log === undefined ? notFound : [200, log, { 'content-type': 'text/plain; charset=utf-8' }];
  }
  return undefined;
}
