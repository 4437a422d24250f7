import { readdir, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { inSystemDir, mayMountToolchainDir, within } from './sandbox-system.js';

/** At most this many folders are added for links (a PATH of thousands of links into one tree stays cheap). */
const MAX_FOLDERS = 64;

/**
 * The folders the programs in the mounted PATH folders live in when they are links out of them
 * (`/usr/bin/google-chrome` → `/etc/alternatives` → `/opt/google/chrome/google-chrome`, a pipx link →
 * `/opt/pipx/venvs/<pkg>/bin/<tool>`): without them the link dangles inside the sandbox, which mounts only
 * what it names. Each target's folder is named (its install prefix when the folder is a `bin/`), by the
 * same rule as a PATH folder (mayMountToolchainDir); targets already visible are skipped.
 */
export async function linkedToolchainDirs(pathDirs: readonly string[], visible: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  const seen = (p: string): boolean => inSystemDir(p) || [...visible, ...out].some((d) => within(p, d));
  for (const dir of pathDirs) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (out.length >= MAX_FOLDERS) return out;
      const link = join(dir, name);
      if ((await readlink(link).catch(() => undefined)) === undefined) continue; // not a link
      const target = await realpath(link).catch(() => undefined);
      if (!target || seen(target)) continue;
      const folder = dirname(target);
      const named = basename(folder) === 'bin' && mayMountToolchainDir(dirname(folder), true) ? dirname(folder) : folder;
      if (!seen(named) && mayMountToolchainDir(named, false)) out.push(named);
    }
  }
  return out;
}
