/** The status comment's tests: a reporter whose comment rewrites are recorded, and the run_start event. */
import { createStatusReporter, type StatusReporter } from '../../src/github/status-reporter.js';

type Phase = Parameters<typeof createStatusReporter>[2]['phase'];
type Timing = Parameters<typeof createStatusReporter>[3];

/** A status reporter for run r1 (fix, requested by octo) in `phase`, on comment 1; `bodies` is every body written, in order. */
export function recordingReporter(phase: Phase, timing: Timing): { r: StatusReporter; bodies: string[] } {
  const bodies: string[] = [];
  const r = createStatusReporter(
    { updateComment: async (_id: number, body: string) => void bodies.push(body) },
    1,
    { runId: 'r1', phase, requester: 'octo', mode: 'fix' },
    timing,
  );
  return { r, bodies };
}

/** Run r1's run_start event (issue #3, worktree /wt); `extra` adds the sandbox, the test command and so on. */
export const runStart = <T extends object>(extra: T) => ({
  type: 'run_start' as const,
  ts: '2026-01-01T00:00:00.000Z',
  runId: 'r1',
  task: { kind: 'issue', issue: 3, title: 't' },
  model: 'm',
  root: '/wt',
  ...extra,
});
