/**
 * Project folders for the verification, detection and evidence tests: files written into a folder from
 * tempDir(). Pure file writes (no process), so unit tests may use it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from './temp.js';

/** A file's content: text as is, anything else as indented JSON (a package.json given as an object). */
export type FileContent = string | object;

/** Writes each file (path relative to `root` → content) under `root`, making its folders. */
export function writeFiles(root: string, files: Readonly<Record<string, FileContent>>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
}

/** A new temp folder (removed when the test file ends) holding exactly these files. */
export function tempProject(files: Readonly<Record<string, FileContent>>, prefix = 'proofpr-project-'): string {
  const root = tempDir(prefix);
  writeFiles(root, files);
  return root;
}
