import type { TranscriptWriter } from '../agent/evidence/ledger.js';
import type { RunSettings } from '../agent/settings.js';
import type { ExecPort } from '../workspace/exec-port.js';
import type { Workspace } from './prepare-workspace.js';
import type { RunTaskInput } from './run-task-types.js';

/**
 * What the steps after the sandbox opens share: the task's input, the run settings the agent core gets
 * (built once, run-settings.ts), the worktree and the sandboxed exec.
 */
export interface RunStep {
  input: RunTaskInput;
  settings: RunSettings;
  ws: Workspace;
  exec: ExecPort;
  /** Opens another redacted transcript in the run folder (sub-agents'); absent = none kept. */
  transcripts?: (relPath: string) => TranscriptWriter;
}
