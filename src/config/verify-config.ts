import { z } from 'zod';

/** `verify` (CONTRACT §11): the check on every pull request, flaky re-runs and untested-hunk runs. */
export const verifySchema = z
  .object({
    pull_requests: z
      .boolean()
      .default(false)
      .describe(
        'the App runs `proofpr verify` on every pull request opened or pushed to (any author, forks included: no model, no secret) and posts the check run `proofpr/verified` on its head',
      ),
    flaky_reruns: z
      .number()
      .int()
      .min(0)
      .max(10)
      .default(2)
      .describe('re-runs of a failing test in isolation before it counts as failing (one that passes and fails is flaky)'),
    hunk_runs: z
      .number()
      .int()
      .min(0)
      .max(100)
      .default(8)
      .describe('at most this many reversion runs for untested hunks (grouped by file when there are more hunks)'),
  })
  .strict()
  .default({ pull_requests: false, flaky_reruns: 2, hunk_runs: 8 });
