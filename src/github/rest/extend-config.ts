/**
 * `_extends` for a config object read outside GitHub (the Action's checkout), resolved exactly as
 * Probot's loader resolves it for a file read through the API: `_extends: [owner/]repo[:path]` names
 * another repository's file (default: the same path, the same owner), that file is loaded with its own
 * `_extends` chain, and this object's keys win in a shallow merge.
 */
import { composeConfigGet } from '@probot/octokit-plugin-config';
import type { RestOctokit } from './rest-octokit.js';

// The plugin's own grammar for `_extends` values.
const EXTENDS = /^(?:([a-z\d](?:[a-z\d]|-(?=[a-z\d])){0,38})\/)?([-_.\w\d]+)(?::([-_./\w\d]+\.ya?ml))?$/i;

export async function extendConfig(
  octokit: RestOctokit,
  at: { owner: string; path: string },
  config: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const value = config._extends;
  if (value === undefined) return config;
  const m = typeof value === 'string' ? EXTENDS.exec(value) : null;
  if (!m) throw new Error(`_extends: ${JSON.stringify(value)} is not [owner/]repo[:path.yml]`);
  const { _extends: _drop, ...own } = config;
  const base = await composeConfigGet(octokit as never, { owner: m[1] || at.owner, repo: m[2] as string, path: m[3] || at.path });
  return { ...base.config, ...own };
}
