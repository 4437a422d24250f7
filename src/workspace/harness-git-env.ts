/** Settings every harness git call gets: no hooks, no signing, no fsmonitor daemon, no credential helper, git's path rules for Windows and macOS. */
const HARNESS_CONFIG: [string, string][] = [
  ['core.hooksPath', '/dev/null'],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['core.fsmonitor', 'false'],
  ['credential.helper', ''],
  // git's verify_path with both of its look-alike rules (Windows and macOS names of `.git`), on every
  // system: a path one of them refuses is never put in an index the harness builds (commit-filter.ts).
  ['core.protectNTFS', 'true'],
  ['core.protectHFS', 'true'],
];

/**
 * A minimal environment for the harness's own git calls: no system or global config (so no identity,
 * excludes file, hooks or helpers of the machine leak in), no prompts, and the settings above passed
 * through GIT_CONFIG_COUNT (command-line scope, never written to a config file).
 */
export function harnessGitEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of ['PATH', 'HOME', 'LANG', 'TMPDIR']) {
    const v = process.env[k];
    if (v !== undefined) env[k] = v;
  }
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_CONFIG_NOSYSTEM = '1';
  env.GIT_CONFIG_GLOBAL = '/dev/null';
  HARNESS_CONFIG.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  env.GIT_CONFIG_COUNT = String(HARNESS_CONFIG.length);
  return env;
}
