/**
 * What the agent core is told of the repository's configuration for one run: the test command, the gates,
 * the permissions, the hooks and the limits. The run layer builds it once (run/run-settings.ts) from the
 * resolved config; the core never sees the repository config itself. `test.command` here is the run's one
 * copy: configured, else detected.
 */
import type { CommandHook } from './hooks/command-hook.js';
import type { HookEventName } from './hooks/types.js';

export interface RunSettings {
  test: {
    /** What counts as the tests (configured or detected); absent when the repository has none. */
    command?: string | undefined;
    /** The report file the test command writes (JUnit XML or Jest/Vitest JSON), worktree-relative. */
    report?: string | undefined;
    min_tests: number;
    /** Limit for one harness test run, in minutes. */
    timeout_min: number;
  };
  gates: {
    tests_ran: boolean;
    tests_fresh: boolean;
    tests_passed: boolean;
    assertions_kept: boolean;
    final_run: boolean;
    /** Absent: on for issues, off otherwise. */
    red_green?: boolean | undefined;
    max_stop_blocks: number;
    test_changes_allowed: string[];
    changed_tests: 'review' | 'fail';
  };
  /** Permission rules in the config's syntax (`Bash(npm run lint:*)`) and the protected paths opened. */
  /** `control_reviewed`: set by proofpr verify (a person's change), never by the config file. */
  permissions: { allow: string[]; deny: string[]; writable: string[]; writable_workflows: boolean; control_reviewed?: boolean };
  hooks: Record<HookEventName, Array<CommandHook & { matcher?: string | undefined; on_failure: 'continue' | 'block' }>>;
  /** `verify.flaky_reruns` and `verify.hunk_runs` (CONTRACT §11); absent: 2 re-runs of a failing test, no untested-hunks runs. */
  verify?: { flaky_reruns?: number; hunk_runs?: number };
  /** The run's budgets: model requests, spend in USD, wall clock in milliseconds. */
  limits: { maxTurns: number; maxCostUsd: number; timeoutMs: number };
}
