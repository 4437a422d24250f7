import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RepoConfig } from '../config/repo-config.js';
import { detectCommands } from '../detect/detect-commands.js';
import { resolveCommands, type CommandChoice, type ResolvedCommands } from '../detect/resolve-commands.js';
import type { DetectedCommands } from '../detect/types.js';
import { checkPackageManagerTools, corepackToolsIn, throughCorepack, type ToolCheck } from './package-manager-tool.js';

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
  /**
   * Why the run cannot start (a readiness stop before setup and before any model request): the package
   * manager the commands call is missing and corepack cannot provide it. Setup is left out.
   */
  notReady?: string;
  /**
   * The install that could not run (its package manager is missing and corepack cannot provide it) while
   * the test command needs no such tool: setup is left out and the tests are tried without it; the
   * baseline decides (check-readiness.ts: not ready only when the tests fail for a missing module).
   */
  installUnavailable?: { command: string; reason: string };
}

export interface ResolveRunOptions {
  detect?: (root: string) => Promise<DetectedCommands>;
  /** Is the package manager there (or corepack)? Default: PATH and a `corepack <tool> --version` probe. */
  checkTools?: (commands: Array<string | undefined>, root: string) => Promise<ToolCheck>;
}

/**
 * Readiness, part 1 (before setup): the test and setup commands of this run, configured or detected
 * from the worktree at the base commit. A detected install is left out when the worktree already has
 * the checkout's installed folder linked (the Action's `npm ci` step before proofpr). A pnpm or yarn
 * that is not installed runs through corepack; when corepack cannot provide it either, `notReady`
 * says so and names the fix.
 */
export async function resolveRunCommands(
  root: string,
  config: RepoConfig,
  detectOrOptions: ((root: string) => Promise<DetectedCommands>) | ResolveRunOptions = {},
): Promise<RunCommands> {
  const opts: ResolveRunOptions = typeof detectOrOptions === 'function' ? { detect: detectOrOptions } : detectOrOptions;
  const detected = await (opts.detect ?? detectCommands)(root);
  const resolved = resolveCommands(config, detected);
  // The skip comes before the package-manager check: a setup that will not run needs no pnpm or yarn.
  const folder = detected.setup ? INSTALLS[detected.setup.tool] : undefined;
  const link = resolved.setup?.source === 'detected' && folder ? await lstat(join(root, folder)).catch(() => undefined) : undefined;
  if (!folder || !resolved.setup || !link?.isSymbolicLink()) return withTools(resolved, root, opts);
  const { setup, ...rest } = resolved;
  const r = await withTools(
    { ...rest, config: { ...resolved.config, setup: { ...resolved.config.setup, command: undefined } } },
    root,
    opts,
  );
  return {
    ...r,
    setupSkipped: `${folder} is linked from the checkout (installed before the run), so the detected \`${setup.command}\` was not run`,
  };
}

/** The package-manager check (see package-manager-tool.ts) applied to the resolved commands. */
async function withTools(r: ResolvedCommands, root: string, opts: ResolveRunOptions): Promise<RunCommands> {
  const check = opts.checkTools ?? ((commands, cwd) => checkPackageManagerTools(commands, { cwd }));
  const t = await check([r.setup?.command, r.test?.command], root);
  if (!t.ok) {
    const { setup, ...rest } = r;
    const withoutSetup = { ...rest, config: { ...r.config, setup: { ...r.config.setup, command: undefined } } };
    // Readiness by trying: a tool only the install needs is no reason to refuse before the tests ran.
    const testTools = corepackToolsIn(r.test?.command);
    if (!setup || t.tool.split(' and ').some((tool) => testTools.includes(tool))) return { ...withoutSetup, notReady: t.reason };
    return {
      ...withoutSetup,
      setupSkipped: `${t.reason}; the tests are tried without \`${setup.command}\` (the baseline decides whether they need it)`,
      installUnavailable: { command: setup.command, reason: t.reason },
    };
  }
  if (!t.corepack) return r;
  const { tools, why } = t.corepack;
  const via = (c: CommandChoice | undefined): CommandChoice | undefined => {
    if (!c) return undefined;
    const command = throughCorepack(c.command, tools);
    return command === c.command ? c : { ...c, command, why: `${c.why}; ${why}` };
  };
  const setup = via(r.setup);
  const test = via(r.test);
  return {
    ...r,
    ...(setup ? { setup } : {}),
    ...(test ? { test } : {}),
    config: {
      ...r.config,
      setup: { ...r.config.setup, ...(setup ? { command: setup.command } : {}) },
      test: { ...r.config.test, ...(test ? { command: test.command } : {}) },
    },
  };
}
