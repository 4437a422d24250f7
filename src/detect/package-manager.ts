import { exists, readText } from './read-text.js';
import type { DetectedSetup } from './types.js';

export type PackageManager = 'npm' | 'pnpm' | 'yarn-classic' | 'yarn-berry' | 'bun';

export interface PackageManagerChoice {
  pm: PackageManager;
  /** The install command that keeps the lock file as it is; absent when there is no lock file. */
  setup?: DetectedSetup;
  why: string;
}

const INSTALL: Record<PackageManager, string> = {
  npm: 'npm ci',
  pnpm: 'pnpm install --frozen-lockfile',
  'yarn-classic': 'yarn install --frozen-lockfile',
  'yarn-berry': 'yarn install --immutable',
  bun: 'bun install --frozen-lockfile',
};

/** The command that runs a package.json script with this package manager (`bun test` would be bun's own runner). */
export function runScript(pm: PackageManager, script: string): string {
  const bin = pm === 'yarn-classic' || pm === 'yarn-berry' ? 'yarn' : pm;
  if (script === 'test') return pm === 'bun' ? 'bun run test' : `${bin} test`;
  return `${bin} run ${script}`;
}

/** Yarn 2+ ("berry") writes `__metadata:` into yarn.lock and reads `.yarnrc.yml`; yarn 1 does neither. */
async function yarnFlavour(root: string, packageManagerField: string | undefined): Promise<{ pm: PackageManager; why: string }> {
  const lock = (await readText(root, 'yarn.lock')) ?? '';
  if (/^__metadata:/m.test(lock)) return { pm: 'yarn-berry', why: 'yarn.lock has a __metadata section (yarn 2+)' };
  const m = /^yarn@(\d+)/.exec(packageManagerField ?? '');
  if (m?.[1])
    return Number(m[1]) >= 2
      ? { pm: 'yarn-berry', why: `package.json packageManager is ${packageManagerField}` }
      : { pm: 'yarn-classic', why: `package.json packageManager is ${packageManagerField}` };
  if (await exists(root, '.yarnrc.yml')) return { pm: 'yarn-berry', why: 'yarn.lock with .yarnrc.yml (yarn 2+)' };
  return { pm: 'yarn-classic', why: 'yarn.lock in the yarn 1 format' };
}

/**
 * The package manager from the lock file at the top of the repository (then package.json's
 * `packageManager` field), and the install command that keeps that lock file unchanged.
 */
export async function detectPackageManager(root: string, packageManagerField?: string): Promise<PackageManagerChoice> {
  const locks: Array<[string, PackageManager]> = [
    ['pnpm-lock.yaml', 'pnpm'],
    ['yarn.lock', 'yarn-classic'],
    ['bun.lock', 'bun'],
    ['bun.lockb', 'bun'],
    ['package-lock.json', 'npm'],
    ['npm-shrinkwrap.json', 'npm'],
  ];
  for (const [file, pm0] of locks) {
    if (!(await exists(root, file))) continue;
    const { pm, why } =
      pm0 === 'yarn-classic' ? await yarnFlavour(root, packageManagerField) : { pm: pm0, why: `${file} is the lock file` };
    return {
      pm,
      why,
      setup: { command: INSTALL[pm], tool: pm, why: `${why}: \`${INSTALL[pm]}\` installs exactly the locked dependencies` },
    };
  }
  const field = /^(npm|pnpm|yarn|bun)@(\d+)?/.exec(packageManagerField ?? '');
  if (field?.[1]) {
    const pm: PackageManager =
      field[1] === 'yarn' ? (Number(field[2] ?? '1') >= 2 ? 'yarn-berry' : 'yarn-classic') : (field[1] as PackageManager);
    return { pm, why: `package.json packageManager is ${packageManagerField} (no lock file)` };
  }
  return { pm: 'npm', why: 'no lock file, so npm' };
}
