/**
 * The package manager the test and setup commands call (pnpm, yarn): on PATH, through corepack (the
 * dry run then uses `corepack pnpm …`, as a run does), or missing — a failed check naming the fix,
 * the same sentence a run's readiness stop gives (run/package-manager-tool.ts).
 */
import type { ResolvedCommands } from '../../../detect/resolve-commands.js';
import { checkPackageManagerTools, corepackToolsIn, throughCorepack } from '../../../run/package-manager-tool.js';
import type { CheckResult } from './check.js';

export interface PackageManagerCheck {
  check?: CheckResult;
  /** The commands for the dry run (the test command through corepack when it provides the tool). */
  resolved: ResolvedCommands;
}

export async function checkPackageManager(
  repoDir: string,
  resolved: ResolvedCommands,
  env: NodeJS.ProcessEnv = process.env,
): Promise<PackageManagerCheck> {
  const name = 'package manager';
  const commands = [resolved.setup?.command, resolved.test?.command];
  const tools = [...new Set(commands.flatMap(corepackToolsIn))];
  if (!tools.length) return { resolved };
  const t = await checkPackageManagerTools(commands, { cwd: repoDir, env });
  if (!t.ok) {
    return { check: { name, status: 'fail', detail: t.detail ?? t.reason, ...(t.fix ? { fix: t.fix } : {}) }, resolved };
  }
  if (!t.corepack) return { check: { name, status: 'ok', detail: `${tools.join(', ')} on PATH` }, resolved };
  const test = resolved.test && { ...resolved.test, command: throughCorepack(resolved.test.command, t.corepack.tools) };
  return {
    check: { name, status: 'ok', detail: t.corepack.why },
    resolved: {
      ...resolved,
      ...(test ? { test } : {}),
      config: { ...resolved.config, test: { ...resolved.config.test, ...(test ? { command: test.command } : {}) } },
    },
  };
}
