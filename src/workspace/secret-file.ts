import { statSync } from 'node:fs';
import { hasCredentialShape, hasToken, isContentCheckedPath, isSecretPath, isTokenFileName } from '../secrets/files.js';
import { readRegularFile, specialKind } from './special-file.js';

/** Content is read up to this size; a bigger token file counts as a secret, a bigger data file does not. */
const CONTENT_MAX = 256 * 1024;

const cache = new Map<string, { key: string; secret: boolean }>();

/**
 * Does the file at worktree-relative `rel` (absolute `abs`) look like a secret: by its path (src/secrets/files.ts),
 * or by its content (a token file carrying a token; a data or config file holding a credential by its
 * shape, such as a private key or a service-account key)? Source code is judged by path only. A pipe or
 * device is never opened. Answers are cached per file until its size or mtime changes.
 */
export function isSecretFile(rel: string, abs: string): boolean {
  if (isSecretPath(rel)) return true;
  const token = isTokenFileName(rel);
  if (!token && !isContentCheckedPath(rel)) return false;
  try {
    const st = statSync(abs);
    if (!st.isFile() || specialKind(st)) return false;
    const key = `${st.size}:${st.mtimeMs}:${st.ino}`;
    const hit = cache.get(abs);
    if (hit?.key === key) return hit.secret;
    const secret = st.size > CONTENT_MAX ? token : byContent(readRegularFile(abs, CONTENT_MAX, { follow: true }).toString('utf8'), token);
    if (cache.size > 20_000) cache.clear();
    cache.set(abs, { key, secret });
    return secret;
  } catch {
    return false;
  }
}

function byContent(text: string, token: boolean): boolean {
  return token ? hasToken(text) : hasCredentialShape(text);
}
