import type { RepoConfig } from '../config/repo-config.js';
import type { RunSettings } from '../agent/settings.js';

/**
 * The agent core's settings for this run, built once from the resolved config (its test and setup
 * commands configured or detected, resolve-run-commands.ts): only what the core reads, `test.command` once.
 */
export function runSettingsOf(config: RepoConfig): RunSettings {
  const { allow, deny, writable, writable_workflows } = config.permissions;
  return {
    test: { ...config.test },
    gates: config.gates,
    permissions: { allow, deny, writable, writable_workflows },
    hooks: config.hooks,
    limits: { maxTurns: config.max_turns, maxCostUsd: config.max_cost_usd, timeoutMs: config.timeout_min * 60_000 },
    verify: { flaky_reruns: config.verify.flaky_reruns, hunk_runs: config.verify.hunk_runs },
  };
}
