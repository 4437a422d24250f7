/**
 * `.github/proofpr.yml` of a local repository, read and validated deeply (the same zod schema every host
 * uses). A missing file means defaults. Throws ConfigError (exit 2) naming each bad key path.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { parseConfigYaml, parseRepoConfig, validateRepoConfig, type RepoConfig } from '../../config/repo-config.js';

export const CONFIG_PATH = '.github/proofpr.yml';

export interface ConfigFile {
  /** Absolute path of the file (whether it exists or not). */
  path: string;
  /** The path as shown in messages (relative to the repository when inside it). */
  shown: string;
  exists: boolean;
  config: RepoConfig;
  /** `_extends` of the file, when `extendsAllowed` kept it out of the validation. */
  extends?: string;
}

/**
 * `extendsAllowed` (config check): `_extends` is valid in the file (the App, the Action and a GitHub
 * target merge it); it is set aside and the rest is validated, since nothing here reads the other repository.
 */
export function readConfigFile(repoDir: string, configFlag?: string, opts: { extendsAllowed?: boolean } = {}): ConfigFile {
  const path = configFlag ? (isAbsolute(configFlag) ? configFlag : resolve(configFlag)) : join(repoDir, CONFIG_PATH);
  const rel = relative(repoDir, path);
  const shown = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
  const exists = existsSync(path);
  const text = exists ? readFileSync(path, 'utf8') : undefined;
  if (!opts.extendsAllowed) return { path, shown, exists, config: parseRepoConfig(text, shown) };
  const { _extends: from, ...rest } = parseConfigYaml(text, shown);
  const config = validateRepoConfig(rest, shown);
  return { path, shown, exists, config, ...(typeof from === 'string' ? { extends: from } : {}) };
}
