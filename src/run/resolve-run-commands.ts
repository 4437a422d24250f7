import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RepoConfig } from '../config/repo-config.js';
import { detectCommands } from '../detect/detect-commands.js';
import { resolveCommands, type ResolvedCommands } from '../detect/resolve-commands.js';
import type { DetectedCommands } from '../detect/types.js';

/** The folder each detected install fills: when the checkout's own is linked into the worktree, it is already installed. */
const INSTALLS: Record<string, string> = {
  npm: 'node_modules',
  pnpm: 'node_modules',
  'yarn-classic': 'node_modules',
  'yarn-berry': 'node_modules',
  bun: 'node_modules',
};

export interface RunCommands extends ResolvedCommands {
  /** Why a detected setup command is not run (the dependencies are linked from the checkout). */
  setupSkipped?: string;
}

/**
 * Readiness, part 1 (before setup): the test and setup commands of this run, configured or detected
 * from the worktree at the base commit. A detected install is left out when the worktree already has
 * the checkout's installed folder linked (the Action's `npm ci` step before proofpr).
 */
export async function resolveRunCommands(
  root: string,
  config: RepoConfig,
  detect: (root: string) => Promise<DetectedCommands> = detectCommands,
): Promise<RunCommands> {
  const detected = await detect(root);
  const r = resolveCommands(config, detected);
  const folder = detected.setup ? INSTALLS[detected.setup.tool] : undefined;
  if (r.setup?.source !== 'detected' || !folder) return r;
  const link = await lstat(join(root, folder)).catch(() => undefined);
  if (!link?.isSymbolicLink()) return r;
  const { setup, ...rest } = r;
  return {
    ...rest,
    config: { ...r.config, setup: { ...r.config.setup, command: undefined } },
    setupSkipped: `${folder} is linked from the checkout (installed before the run), so the detected \`${setup.command}\` was not run`,
  };
}
