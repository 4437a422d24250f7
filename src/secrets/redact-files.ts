/**
 * The run folder's files after the run: tool outputs (the model's saved Bash outputs, the harness's test
 * runs and the runners' reports) are streamed to disk as they arrive, so they are redacted in place once the
 * run is over, like every other artifact. Symbolic links are not followed; a file is replaced atomically.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { redactText } from './redact.js';

/** Files up to this size are redacted whole; larger ones line-chunk by line-chunk. */
const WHOLE_FILE_BYTES = 32 * 1024 * 1024;
/** A chunk of a large file ends at the last newline within this many bytes. */
const CHUNK_BYTES = 4 * 1024 * 1024;

async function redactLargeFile(path: string, known: readonly string[]): Promise<boolean> {
  const tmp = `${path}.redacting`;
  const out = createWriteStream(tmp);
  let carry = '';
  let changed = false;
  const emit = (text: string): void => {
    const clean = redactText(text, known);
    if (clean !== text) changed = true;
    out.write(clean);
  };
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: CHUNK_BYTES })) {
    const text = carry + (chunk as string);
    const cut = text.lastIndexOf('\n') + 1;
    carry = cut > 0 ? text.slice(cut) : text.length > CHUNK_BYTES ? '' : text;
    emit(cut > 0 ? text.slice(0, cut) : text.length > CHUNK_BYTES ? text : '');
  }
  if (carry) emit(carry);
  await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
  if (changed) await rename(tmp, path);
  else await rm(tmp, { force: true });
  return changed;
}

async function redactFile(path: string, size: number, known: readonly string[]): Promise<boolean> {
  if (size > WHOLE_FILE_BYTES) return redactLargeFile(path, known);
  const text = await readFile(path, 'utf8');
  const clean = redactText(text, known);
  if (clean === text) return false;
  const tmp = `${path}.redacting`;
  await writeFile(tmp, clean);
  await rename(tmp, path);
  return true;
}

/**
 * Redacts every regular file under `dir` in place (known values and every token rule); returns the paths
 * that changed. A missing folder is nothing to do.
 */
export async function redactFiles(dir: string, known: readonly string[] = []): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const changed: string[] = [];
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) changed.push(...(await redactFiles(p, known)));
    else if (e.isFile()) {
      const st = await lstat(p);
      if (await redactFile(p, st.size, known)) changed.push(p);
    }
  }
  return changed;
}
