import { cp, link, lstat, mkdir, mkdtemp, readdir, readlink, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';

/** The home as setup left it, copied once before the agent's first command (see snapshotHome). */
export const SETUP_HOME = 'setup-home';

/**
 * Keep the per-run home as `setup.command` left it (installed tools, a user site, caches), before the
 * agent's first command: a real copy, so nothing the agent later writes into its home (an `.npmrc`
 * with `script-shell`, a `.gitconfig` with `core.fsmonitor`) reaches it. Idempotent.
 */
export async function snapshotHome(runTmp: string): Promise<void> {
  const home = join(runTmp, 'home');
  const into = join(runTmp, SETUP_HOME);
  if (await lstat(into).catch(() => undefined)) return;
  await mkdir(home, { recursive: true });
  await cp(home, into, { recursive: true, verbatimSymlinks: true, errorOnExist: false, force: true });
}

/**
 * A home for one harness run (baseline, final, differential): a fresh folder under `runTmp/homes/`
 * holding the setup snapshot, or empty when there is none. The settings a tool reads are copied (see
 * isSettings: `.npmrc`, `.gitconfig`, `.config/pip/pip.conf`); everything else, the caches (Go's module
 * cache, npm's `_cacache`, a pnpm store), is hard-linked so big caches are not copied per run. The
 * caller removes it after the run.
 */
export async function makeFreshHome(runTmp: string): Promise<string> {
  await mkdir(join(runTmp, 'homes'), { recursive: true });
  const dir = await mkdtemp(join(runTmp, 'homes', 'home-'));
  const snap = join(runTmp, SETUP_HOME);
  if (await lstat(snap).catch(() => undefined)) await linkTree(snap, dir);
  return dir;
}

/** Settings files bigger than this are cache data after all, and hard-linked. */
export const LINK_FROM_BYTES = 256 * 1024;

/**
 * A settings file of the home, copied into each fresh home: a file at the top (`.npmrc`, `.gitconfig`,
 * `.pypirc`), anything under `.config/`, or a file one folder down (`.cargo/config.toml`,
 * `.pip/pip.conf`, `.docker/config.json`); none bigger than LINK_FROM_BYTES.
 */
function isSettings(rel: string, size: number): boolean {
  const depth = rel.split('/').length;
  return size < LINK_FROM_BYTES && (depth <= 2 || rel.startsWith('.config/'));
}

/** Mirror folder `from` into existing folder `to`: folders made, settings files copied, the rest hard-linked (copied across devices), symlinks recreated. */
async function linkTree(from: string, to: string, rel = ''): Promise<void> {
  for (const e of await readdir(from, { withFileTypes: true })) {
    const src = join(from, e.name);
    const dest = join(to, e.name);
    const relPath = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      await mkdir(dest);
      await linkTree(src, dest, relPath);
    } else if (e.isSymbolicLink()) await symlink(await readlink(src), dest);
    else if (e.isFile()) {
      const copy = isSettings(relPath, (await lstat(src)).size);
      await (copy ? cp(src, dest) : link(src, dest).catch(() => cp(src, dest)));
    }
  }
}

export async function removeFreshHome(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true }).catch(() => undefined);
}
