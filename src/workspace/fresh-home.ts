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
 * holding the setup snapshot, or empty when there is none. Files up to LINK_FROM_BYTES are copied (the
 * settings a tool reads: `.npmrc`, `.gitconfig`, `pip.conf`), bigger ones (cache blobs) hard-linked so
 * big caches are not copied per run. The caller removes it after the run.
 */
export async function makeFreshHome(runTmp: string): Promise<string> {
  await mkdir(join(runTmp, 'homes'), { recursive: true });
  const dir = await mkdtemp(join(runTmp, 'homes', 'home-'));
  const snap = join(runTmp, SETUP_HOME);
  if (await lstat(snap).catch(() => undefined)) await linkTree(snap, dir);
  return dir;
}

/** Files at least this big are hard-linked into a fresh home instead of copied. */
export const LINK_FROM_BYTES = 256 * 1024;

/** Mirror folder `from` into existing folder `to`: folders made, small files copied, big ones hard-linked (copied across devices), symlinks recreated. */
async function linkTree(from: string, to: string): Promise<void> {
  for (const e of await readdir(from, { withFileTypes: true })) {
    const src = join(from, e.name);
    const dest = join(to, e.name);
    if (e.isDirectory()) {
      await mkdir(dest);
      await linkTree(src, dest);
    } else if (e.isSymbolicLink()) await symlink(await readlink(src), dest);
    else if (e.isFile()) {
      const big = ((await lstat(src)).size ?? 0) >= LINK_FROM_BYTES;
      await (big ? link(src, dest).catch(() => cp(src, dest)) : cp(src, dest));
    }
  }
}

export async function removeFreshHome(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true }).catch(() => undefined);
}
