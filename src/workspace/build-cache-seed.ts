import { cp, lstat, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Go's build cache under a home (GOCACHE's default when neither GOCACHE nor XDG_CACHE_HOME is set). */
export const GO_BUILD_CACHE = join('.cache', 'go-build');

/** The run's seed, next to the setup snapshot: outside every sandbox (the sandbox's /tmp is its own). */
const SEED = join('build-cache-seed', 'go-build');

const isDir = async (p: string): Promise<boolean> => (await lstat(p).catch(() => undefined))?.isDirectory() === true;

/**
 * Every harness run has a fresh home, so go would compile and vet the standard library again for each
 * one (seconds per run, most of a small package's test time). The build cache that the run on the
 * base commit (the baseline) leaves in its fresh home is kept as the run's seed: only the base
 * commit's code and the toolchain ran there, before any of the agent's code, as trusted as the
 * baseline itself. The first seed is kept; later calls do nothing. The run's shared home (the agent's
 * Bash) gets a copy when it has no build cache yet.
 */
export async function keepBuildCacheSeed(freshHome: string, runTmp: string, sharedHome: string): Promise<void> {
  const from = join(freshHome, GO_BUILD_CACHE);
  const seed = join(runTmp, SEED);
  if (!(await isDir(from)) || (await isDir(seed))) return;
  await mkdir(dirname(seed), { recursive: true });
  await rename(from, seed);
  if (!(await isDir(join(sharedHome, GO_BUILD_CACHE)))) await copySeed(seed, join(sharedHome, GO_BUILD_CACHE));
}

/**
 * A fresh home starts from a private copy of the seed, never a link: what one run writes into its
 * cache (the final run runs the agent's code) reaches no other run. A cache the setup snapshot linked
 * in is replaced (the seed grew from it). True when a seed was copied.
 */
export async function plantBuildCacheSeed(runTmp: string, freshHome: string): Promise<boolean> {
  const seed = join(runTmp, SEED);
  if (!(await isDir(seed))) return false;
  const into = join(freshHome, GO_BUILD_CACHE);
  await rm(into, { recursive: true, force: true });
  await copySeed(seed, into);
  return true;
}

async function copySeed(seed: string, into: string): Promise<void> {
  await mkdir(dirname(into), { recursive: true });
  await cp(seed, into, { recursive: true, errorOnExist: false, force: true, verbatimSymlinks: true });
}

/**
 * GOFLAGS for a harness run: `-count=1` added (unless a -count is already there), so go test never
 * replays a result cached by an earlier run (a warm cache holds the baseline's passing packages):
 * every harness run really runs the tests. Entries a go command does not define are ignored by it.
 */
export function noCachedTestResults(goflags: string | undefined): string {
  const flags = (goflags ?? '').trim();
  if (flags.split(/\s+/).some((f) => /^--?count(=|$)/.test(f))) return flags;
  return flags ? `${flags} -count=1` : '-count=1';
}
