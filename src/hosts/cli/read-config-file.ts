/**
 * `.github/proofpr.yml` of a local repository, read and validated deeply (the same zod schema every host
 * uses). A missing file means defaults. Throws ConfigError (exit 2) naming each bad key path.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { parseRepoConfig, type RepoConfig } from '../../config/repo-config.js';

export const CONFIG_PATH = '.github/proofpr.yml';

export interface ConfigFile {
  /** Absolute path of the file (whether it exists or not). */
  path: string;
  /** The path as shown in messages (relative to the repository when inside it). */
  shown: string;
  exists: boolean;
  config: RepoConfig;
}

export function readConfigFile(repoDir: string, configFlag?: string): ConfigFile {
  const path = configFlag ? (isAbsolute(configFlag) ? configFlag : resolve(configFlag)) : join(repoDir, CONFIG_PATH);
  const rel = relative(repoDir, path);
  const shown = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
  const exists = existsSync(path);
  const config = parseRepoConfig(exists ? readFileSync(path, 'utf8') : undefined, shown);
  return { path, shown, exists, config };
}
