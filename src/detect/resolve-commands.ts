import type { RepoConfig } from '../config/repo-config.js';
import type { DetectedCommands } from './types.js';

/** Which command a run uses, where it came from, and why (evidence `test`, CONTRACT §5). */
export interface CommandChoice {
  command: string;
  source: 'configured' | 'detected';
  why: string;
  /** The runner a detected command calls, when known. */
  runner?: string;
}

export interface ResolvedCommands {
  /** The config with the detected commands filled in where the file had none. */
  config: RepoConfig;
  test?: CommandChoice;
  setup?: CommandChoice;
  /** When there is no test command: a sentence naming the config key to set (and what was looked at). */
  missing?: string;
}

/**
 * Configured commands win; a missing `test.command` / `setup.command` is taken from detection.
 * `source` says which, `why` says from which file.
 */
export function resolveCommands(config: RepoConfig, detected: DetectedCommands, configFile = '.github/proofpr.yml'): ResolvedCommands {
  const test: CommandChoice | undefined = config.test.command
    ? { command: config.test.command, source: 'configured', why: `test.command in ${configFile}` }
    : detected.test && {
        command: detected.test.command,
        source: 'detected',
        why: detected.test.why,
        ...(detected.test.runner ? { runner: detected.test.runner } : {}),
      };
  const setup: CommandChoice | undefined = config.setup.command
    ? { command: config.setup.command, source: 'configured', why: `setup.command in ${configFile}` }
    : detected.setup && { command: detected.setup.command, source: 'detected', why: detected.setup.why };
  const next: RepoConfig = {
    ...config,
    test: { ...config.test, ...(test ? { command: test.command } : {}) },
    setup: { ...config.setup, ...(setup ? { command: setup.command } : {}) },
  };
  const seen = detected.notes.length ? ` (${detected.notes.join('; ')})` : '';
  const missing = test
    ? undefined
    : `no test command: set test.command in ${configFile} (nothing was detected from package.json scripts.test, pytest/unittest files, go.mod, Cargo.toml or a Makefile test: target${seen})`;
  return { config: next, ...(test ? { test } : {}), ...(setup ? { setup } : {}), ...(missing ? { missing } : {}) };
}
