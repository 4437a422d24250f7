import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { detectPackageManager, type PackageManager } from '../detect/package-manager.js';
import { readText } from '../detect/read-text.js';
import { logger } from '../log.js';
import { dependencyCacheKey, restoreDependencies, saveDependencies } from '../workspace/dependency-cache.js';
import type { RunCommands } from './resolve-run-commands.js';

const log = logger('dependency-cache');

/** The files whose content decides what each package manager's frozen install puts in node_modules. */
const KEY_FILES: Record<PackageManager, string[]> = {
  npm: ['package-lock.json', 'npm-shrinkwrap.json', '.npmrc'],
  pnpm: ['pnpm-lock.yaml', '.npmrc', '.pnpmfile.cjs'],
  'yarn-classic': ['yarn.lock', '.yarnrc', '.npmrc'],
  'yarn-berry': ['yarn.lock', '.yarnrc.yml'],
  bun: ['bun.lock', 'bun.lockb', 'bunfig.toml', '.npmrc'],
};

export interface DependencyCacheStep {
  /** The run's commands, with setup left out when the cache had the folder. */
  cmds: RunCommands;
  /** After a successful setup: moves the installed folder into the cache (undefined when nothing is to be saved). */
  afterSetup?: () => Promise<void>;
}

interface Plan {
  key: string;
  folder: string;
  command: string;
  files: string[];
}

/** A cacheable setup: the package manager's frozen install of the lock file (configured or detected), one top-level node_modules. */
async function planFor(root: string, cmds: RunCommands): Promise<Plan | undefined> {
  const command = cmds.setup?.command;
  if (!command) return undefined;
  const pkgText = await readText(root, 'package.json');
  if (pkgText === undefined) return undefined;
  let pkg: { packageManager?: unknown; workspaces?: unknown };
  try {
    pkg = JSON.parse(pkgText) as typeof pkg;
  } catch {
    return undefined;
  }
  // Workspaces install node_modules in each package too: one folder does not hold them.
  if (pkg.workspaces !== undefined || (await readText(root, 'pnpm-workspace.yaml')) !== undefined) return undefined;
  const pm = await detectPackageManager(root, typeof pkg.packageManager === 'string' ? pkg.packageManager : undefined);
  if (!pm.setup || pm.setup.command !== command.trim()) return undefined;
  const files: Array<[string, Buffer]> = [];
  for (const name of KEY_FILES[pm.pm]) {
    const content = await readFile(join(root, name)).catch(() => undefined);
    if (content) files.push([name, content]);
  }
  const folder = 'node_modules';
  return { key: dependencyCacheKey({ command, folder, files }), folder, command, files: files.map((f) => f[0]) };
}

/**
 * Step 2b (fix mode, when the host keeps a dependency cache: the App's mirrors): a frozen install of
 * a lock file is cached under `cacheDir/<sha256 of lock file + command + platform>/node_modules`.
 * A hit links the folder into the worktree (read-only in the sandbox) and leaves setup out; a miss
 * runs setup as usual and then moves what it installed into the cache, linked back the same way.
 */
export async function dependencyCacheStep(
  cacheDir: string | undefined,
  root: string,
  gitDir: string,
  cmds: RunCommands,
): Promise<DependencyCacheStep> {
  const plan = cacheDir ? await planFor(root, cmds).catch(() => undefined) : undefined;
  if (!cacheDir || !plan) return { cmds };
  const short = plan.key.slice(0, 12);
  if (await restoreDependencies(cacheDir, plan.key, root, gitDir, plan.folder)) {
    log.info({ key: plan.key, folder: plan.folder }, 'dependency cache hit');
    const { setup, ...rest } = cmds;
    const why = `${plan.folder} was restored from the dependency cache (${short}: ${plan.files.join(', ')} and \`${plan.command}\` unchanged), so \`${setup?.command ?? plan.command}\` was not run`;
    return { cmds: { ...rest, config: { ...cmds.config, setup: { ...cmds.config.setup, command: undefined } }, setupSkipped: why } };
  }
  return {
    cmds,
    afterSetup: async () => {
      const saved = await saveDependencies(cacheDir, plan.key, root, gitDir, plan).catch(
        (e: Error) => (log.warn({ err: e.message }, 'dependency cache: not saved'), false),
      );
      log.info({ key: plan.key, saved }, 'dependency cache miss');
    },
  };
}
