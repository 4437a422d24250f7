/**
 * The one temp-folder helper of the suite. `tempDir()` makes a fresh folder under the OS temp folder (or
 * under `parent`), returns its real path (macOS and some CI images put tmpdir() behind a symlink; the
 * product resolves paths with realpath, so a test must compare real paths), and removes it when the test
 * file ends (test/kit/cleanup.ts registers that with jest). Set PROOFPR_KEEP_TEMP=1 to keep them.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const KEY = Symbol.for('proofpr.test.tempDirs');
type Registry = { [KEY]?: string[] };

function registry(): string[] {
  const g = globalThis as Registry;
  g[KEY] ??= [];
  return g[KEY];
}

/** A new empty folder (real path), removed when the test file ends. */
export function tempDir(prefix = 'proofpr-test-', parent: string = tmpdir()): string {
  const dir = realpathSync(mkdtempSync(join(parent, prefix)));
  registry().push(dir);
  return dir;
}

/** A path for a file in a new temp folder (the file itself is not created). */
export function tempFile(name: string, prefix = 'proofpr-test-'): string {
  return join(tempDir(prefix), name);
}

/** Removes every folder tempDir() made in this test file (called by the kit's afterAll). */
export function removeTempDirs(): void {
  if (process.env.PROOFPR_KEEP_TEMP === '1') return;
  const dirs = registry().splice(0);
  for (const dir of dirs.reverse()) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // a folder a sandboxed process made read-only, or one still in use: the OS temp cleaner takes it
    }
  }
}
