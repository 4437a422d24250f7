import { statSync } from 'node:fs';
import ignore from 'ignore';
import { binaryCredential, isBinary, isContentCheckedPath, secretContentRule } from '../secrets/files.js';
import { leakForms, maskedSecrets } from '../secrets/known-values.js';
import { readRegularFile, specialKind } from './special-file.js';

/** Content is read up to this size (a credential file is small; a bigger file is judged by its first part). */
const CONTENT_MAX = 256 * 1024;
/** What is read first: enough to tell a binary file (a NUL byte) and a keystore's leading bytes. */
const HEAD_BYTES = 8192;

const cache = new Map<string, { key: string; rule: string | undefined }>();

/** `permissions.masked` per worktree (and per clean checkout of it): paths hidden whatever they hold. */
const maskedGlobs = new Map<string, (rel: string) => boolean>();

/** Registers `permissions.masked` (gitignore-style globs) for the worktree or checkout at `root`; none clears it. */
export function setMaskedGlobs(root: string, globs: readonly string[]): void {
  if (globs.length === 0) {
    maskedGlobs.delete(root);
    return;
  }
  const ig = ignore().add(globs.map((g) => g.replace(/^\.\//, '')));
  maskedGlobs.set(root, (rel) => rel !== '' && ig.ignores(rel));
}

/** The matcher registered for `root` (a clean checkout of a worktree takes its worktree's). */
export function maskedGlobsOf(root: string): ((rel: string) => boolean) | undefined {
  return maskedGlobs.get(root);
}

export function copyMaskedGlobs(copy: string, of: string): void {
  const m = maskedGlobs.get(of);
  if (m) maskedGlobs.set(copy, m);
}

export function dropMaskedGlobs(root: string): void {
  maskedGlobs.delete(root);
}

/** Named by permissions.masked for the worktree `abs` is in (its root is `abs` without `/rel`). */
function maskedByConfig(rel: string, abs: string): boolean {
  if (maskedGlobs.size === 0 || !abs.endsWith(`/${rel}`)) return false;
  return maskedGlobs.get(abs.slice(0, -rel.length - 1))?.(rel) ?? false;
}

/**
 * Why the file at worktree-relative `rel` (absolute `abs`) is a secret, or undefined: the content rule it
 * matches (src/secrets/files.ts: private keys, token formats, credential-file formats, binary keystores),
 * or `permissions.masked`. Never by its name alone: a `tests/.env` of fixtures is no secret, a
 * `fixtures/a.txt` holding an AWS key is. A pipe or device is never opened. Answers are cached per file
 * until its size, mtime or inode changes.
 */
export function secretFileRule(rel: string, abs: string): string | undefined {
  if (maskedByConfig(rel, abs)) return 'permissions.masked';
  try {
    const st = statSync(abs);
    if (!st.isFile() || specialKind(st) || st.size === 0) return undefined;
    const key = `${st.size}:${st.mtimeMs}:${st.ino}`;
    const hit = cache.get(abs);
    if (hit?.key === key) return hit.rule;
    const rule = judge(rel, abs, st.size);
    if (cache.size > 20_000) cache.clear();
    cache.set(abs, { key, rule });
    return rule;
  } catch {
    return undefined;
  }
}

/** Source code and docs are not read; a binary file is judged by its first bytes; text up to CONTENT_MAX. */
function judge(rel: string, abs: string, size: number): string | undefined {
  if (!isContentCheckedPath(rel)) return undefined;
  const head = readRegularFile(abs, HEAD_BYTES, { follow: true });
  if (isBinary(head)) return binaryCredential(head);
  return secretContentRule(rel, size > head.length ? readRegularFile(abs, CONTENT_MAX, { follow: true }) : head);
}

/**
 * Why the file may not be committed, or undefined: its content matches a secret rule (secretFileRule), or
 * it carries a secret string of a file masked in this run (a copy under another name, raw, URL-encoded or
 * base64: copies are the same secret).
 */
export function secretInFile(rel: string, abs: string): string | undefined {
  const rule = secretFileRule(rel, abs);
  if (rule) return `holds a secret by its content (${rule})`;
  const known = maskedSecrets();
  if (known.length === 0) return undefined;
  let text: string;
  try {
    text = readRegularFile(abs, 4 * CONTENT_MAX, { follow: false }).toString('utf8');
  } catch {
    return undefined;
  }
  return known.some((v) => leakForms(v).some((f) => text.includes(f))) ? 'carries the secret of a masked file (a copy)' : undefined;
}

/** Does the file at `rel` (absolute `abs`) hold a secret by its content, or is it named by permissions.masked? */
export function isSecretFile(rel: string, abs: string): boolean {
  return secretFileRule(rel, abs) !== undefined;
}
