import { stamp, type RunEvent } from '../agent/events.js';
import { logger } from '../log.js';
import { SetupError } from './open-sandbox.js';
import type { Workspace } from './prepare-workspace.js';
import { outcomeOf, type RunOutcome } from './run-outcome.js';
import type { RunTaskInput } from './run-task-types.js';
import { saveWip } from './save-wip.js';

const log = logger('run-task');

/**
 * A step threw: a failed setup command aborts the run (the repository's install, said once by the run's
 * end, not logged as an error), anything else is an internal error. Whatever the
 * worktree holds is saved as WIP (fix mode) so no work is lost.
 */
export async function failRun(
  input: RunTaskInput,
  ws: Workspace | undefined,
  e: unknown,
  record: (ev: RunEvent) => void,
): Promise<RunOutcome> {
  const err = e as Error;
  if (e instanceof SetupError) {
    // The repository's own install failed: not proofpr's error. The run's end says it once (run_end).
    log.info({ reason: err.message }, 'setup failed');
    record(stamp({ type: 'error', kind: 'setup', message: err.message }));
    const outcome = outcomeOf('aborted', err.message);
    return ws && input.mode === 'fix' ? saveWip(input, ws, outcome) : outcome;
  }
  const outcome = outcomeOf('error', `internal error: ${err.message}`);
  log.error({ err: err.message }, 'run failed');
  record(stamp({ type: 'error', kind: 'internal', message: err.message }));
  return ws && input.mode === 'fix' ? saveWip(input, ws, outcome) : outcome;
}
