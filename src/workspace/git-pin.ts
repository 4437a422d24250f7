/*
 * Git pinned to the worktree for the commands the agent runs (docs/security.md, row "harness
 * tampering"): the worktree's own git dir and work tree, no system or global config, no hooks, no
 * fsmonitor. `cd` into an embedded repository, a rewritten `.git` pointer or config passed through the
 * environment then cannot make git run a program.
 */

/**
 * Settings passed on git's command-line scope (GIT_CONFIG_COUNT): they win over any repository config.
 * Not `diff.external`: git reads an empty value as a program named "" and every `git diff` with a change
 * dies ("external diff died"); the sandbox's repository config holds no diff settings, and the
 * GIT_EXTERNAL_DIFF prefix and `--ext-diff` are refused by the policy.
 */
const PINNED: [string, string][] = [
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  ['core.sshCommand', 'false'],
  ['credential.helper', ''],
];

/** The environment that pins every git a command line starts to the worktree `root` and its git dir. */
export function gitPinEnv(root: string, gitDir: string): Record<string, string> {
  const env: Record<string, string> = {
    GIT_DIR: gitDir,
    GIT_WORK_TREE: root,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
  };
  PINNED.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  env.GIT_CONFIG_COUNT = String(PINNED.length);
  return env;
}

/**
 * Does a command line run git itself (`git` as a word, `/usr/bin/git`)? Those lines get the pin; a test
 * command that never names git keeps git's own discovery, so test suites that create repositories of
 * their own in temporary folders still work.
 */
export function runsGit(command: string): boolean {
  return /(^|[\s;&|(`{!]|\/)git(\s|$|;|&|\||\))/.test(command);
}
