/**
 * The repo config for the Action: the `config` input's file in the checkout (a missing default file means
 * defaults), `_extends` merged through the GitHub port exactly as the App's loader merges it, then the
 * step's inputs (trigger, model, max_turns, max_cost_usd, test_command) on top.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { ActionInputError, type ActionInputs } from '../../config/action-inputs.js';
import { ConfigError, parseConfigYaml, validateRepoConfig, type RepoConfig } from '../../config/repo-config.js';
import type { GitHubPort } from '../../github/port.js';

export const DEFAULT_CONFIG_PATH = '.github/proofpr.yml';

export async function loadActionConfig(
  workspace: string,
  inputs: ActionInputs,
  github: Pick<GitHubPort, 'extendConfig'>,
): Promise<RepoConfig> {
  return (await loadActionConfigFacts(workspace, inputs, github)).config;
}

/** The config and whether the file (or what it extends) sets ci.wait_min itself rather than by default. */
export async function loadActionConfigFacts(
  workspace: string,
  inputs: ActionInputs,
  github: Pick<GitHubPort, 'extendConfig'>,
): Promise<{ config: RepoConfig }> {
  const path = isAbsolute(inputs.config) ? inputs.config : join(workspace, inputs.config);
  const exists = existsSync(path);
  if (!exists && inputs.config !== DEFAULT_CONFIG_PATH)
    throw new ActionInputError('config', `${inputs.config}: no such file in the checkout`);
  // ConfigError (exit 2) names the file and each bad key path.
  const raw = parseConfigYaml(exists ? readFileSync(path, 'utf8') : undefined, inputs.config);
  let merged: Record<string, unknown>;
  try {
    merged = await github.extendConfig(raw);
  } catch (e) {
    throw new ConfigError(`invalid ${inputs.config}: _extends: ${(e as Error).message}`);
  }
  const config = validateRepoConfig(merged, inputs.config);
  const withInputs: RepoConfig = {
    ...config,
    // The input's default is '/agent': only a different value overrides the file's trigger.
    ...(inputs.trigger !== '/agent' ? { trigger: inputs.trigger } : {}),
    ...(inputs.model ? { model: inputs.model } : {}),
    ...(inputs.maxTurns !== undefined ? { max_turns: inputs.maxTurns } : {}),
    ...(inputs.maxCostUsd !== undefined ? { max_cost_usd: inputs.maxCostUsd } : {}),
    ...(inputs.testCommand ? { test: { ...config.test, command: inputs.testCommand } } : {}),
  };
  return { config: withInputs };
}
