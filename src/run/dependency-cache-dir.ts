import { dirname, join } from 'node:path';
import type { Workspace } from './prepare-workspace.js';
import type { RunTaskInput } from './run-task-types.js';

/** Where this run's dependency cache lives: the input's, else `<PROOFPR_HOME>/dep-cache` for runs from a mirror (the App); fix mode only. */
export function dependencyCacheDir(
  input: Pick<RunTaskInput, 'dependencyCache' | 'worktreesDir' | 'mode'>,
  ws: Pick<Workspace, 'mirror'>,
): string | undefined {
  if (input.mode !== 'fix' || input.dependencyCache === false) return undefined;
  if (typeof input.dependencyCache === 'string') return input.dependencyCache;
  return ws.mirror ? join(dirname(input.worktreesDir), 'dep-cache') : undefined;
}
