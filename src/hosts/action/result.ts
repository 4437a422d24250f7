/** What one Action step produced: the exit code (CONTRACT §3), the step outputs, the job summary. */
export interface ActionResult {
  exitCode: number;
  outputs: { verdict: string; branch: string; pr_number: string; pr_url: string; evidence_path: string };
  summaryMd: string;
  /** One line for the log. */
  message: string;
}

export function skipped(message: string): ActionResult {
  return {
    exitCode: 0,
    outputs: { verdict: 'skipped', branch: '', pr_number: '', pr_url: '', evidence_path: '' },
    summaryMd: `proofpr did not run: ${message}\n`,
    message,
  };
}

/** PR number from an html URL (…/pull/12). */
export function prNumberOf(url: string | undefined): string {
  return /\/pull\/(\d+)/.exec(url ?? '')?.[1] ?? '';
}
