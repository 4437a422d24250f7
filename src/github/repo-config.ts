/**
 * `.github/proofpr.yml` through Probot's config loader (YAML parsed, `_extends` merged; see
 * GitHubPort.readConfig), then validated strictly. An invalid file is reported, never half-applied.
 */
import { ConfigError, validateRepoConfig, type RepoConfig } from '../config/repo-config.js';
import type { GitHubPort } from './port.js';

export type LoadedConfig =
  | { ok: true; config: RepoConfig }
  | {
      ok: false;
      /** One line per bad key path ("test.min_tests: expected number"). */
      problems: string[];
      /** Prefix to recognise a command with while the file is broken (the file's own, when it is a string). */
      trigger: string;
    };

/** Load and validate the repo config from `ref` (default branch when omitted). */
export async function loadRepoConfig(github: Pick<GitHubPort, 'readConfig'>, ref?: string): Promise<LoadedConfig> {
  let raw: Record<string, unknown> | null;
  try {
    raw = await github.readConfig(ref);
  } catch (e) {
    return { ok: false, problems: [`(file): ${(e as Error).message}`], trigger: '/agent' };
  }
  try {
    return { ok: true, config: validateRepoConfig(raw ?? {}) };
  } catch (e) {
    const problems = e instanceof ConfigError && e.issues.length > 0 ? e.issues.flatMap((i) => i.split('\n')) : [(e as Error).message];
    const t = raw?.['trigger'];
    return { ok: false, problems, trigger: typeof t === 'string' && t.trim() !== '' ? t.trim() : '/agent' };
  }
}

/** The comment posted when the config is invalid: each bad key path on its own line. */
export function invalidConfigComment(problems: string[]): string {
  return [
    'I did not start: `.github/proofpr.yml` on the default branch is invalid.',
    '',
    ...problems.map((p) => `- \`${p.split(':')[0]}\`:${p.slice(p.indexOf(':') + 1)}`),
    '',
    'Fix the file and comment again.',
  ].join('\n');
}
