import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** The text of `<root>/<name>` when it is a regular file (at most 1 MB read), else undefined. */
export async function readText(root: string, name: string): Promise<string | undefined> {
  const path = join(root, name);
  const s = await stat(path).catch(() => undefined);
  if (!s?.isFile() || s.size > 1024 * 1024) return undefined;
  return readFile(path, 'utf8').catch(() => undefined);
}

/** True when `<root>/<name>` exists (file or folder). */
export async function exists(root: string, name: string): Promise<boolean> {
  return (await stat(join(root, name)).catch(() => undefined)) !== undefined;
}
