import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * What a non-regular, non-directory file is, in words, or undefined for a regular file, a directory or
 * a symlink (a symlink is judged by what it points to: stat it, not lstat). Opening a named pipe blocks
 * until a writer comes (the whole process when the open is synchronous), reading a character device
 * may never end, and a socket cannot be opened at all: every harness-side read asks this first.
 */
export function specialKind(st: Pick<Stats, 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>): string | undefined {
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return undefined;
}

/** The refusal a file tool gives for a special file: what it is and what to do instead. */
export function specialFileMessage(shown: string, kind: string, verb: string): string {
  return (
    `${shown} is ${kind}, not a regular file: ${verb} it could block the run forever, so it is refused. ` +
    'Leave it alone (remove it with Bash if your work created it), and work with regular files.'
  );
}

/** A special file met where a regular one was expected (see readRegularFile). */
export class SpecialFileError extends Error {
  readonly kind: string;
  constructor(path: string, kind: string) {
    super(`${path} is ${kind}, not a regular file`);
    this.name = 'SpecialFileError';
    this.kind = kind;
  }
}

/** A file over the bound given to readRegularFile. */
export class FileTooLargeError extends Error {
  readonly size: number;
  constructor(path: string, size: number, max: number) {
    super(`${path} is ${size} bytes, over the ${max}-byte bound for reading it whole`);
    this.name = 'FileTooLargeError';
    this.size = size;
  }
}

/** The size to read of an opened file; throws for a special file, a directory, or one over `maxBytes`. */
function readableSize(abs: string, st: Stats, maxBytes: number): number {
  const kind = specialKind(st);
  if (kind) throw new SpecialFileError(abs, kind);
  if (st.isDirectory()) throw Object.assign(new Error(`EISDIR: ${abs} is a directory`), { code: 'EISDIR' });
  if (st.size > maxBytes) throw new FileTooLargeError(abs, st.size, maxBytes);
  return st.size;
}

/**
 * Reads a regular file whole, never blocking on what is not one: the open is non-blocking and does not
 * follow a final symlink (a pipe swapped in after a stat opens at once and is refused by the fstat that
 * follows), and at most `maxBytes` are read (FileTooLargeError when the file is larger). Throws
 * SpecialFileError for a pipe, socket or device, and the fs error (ENOENT, EISDIR, ELOOP for a
 * final symlink unless `follow`) otherwise.
 */
export function readRegularFile(abs: string, maxBytes: number, opts: { follow?: boolean } = {}): Buffer {
  const fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK | (opts.follow ? 0 : constants.O_NOFOLLOW));
  try {
    const buf = Buffer.alloc(readableSize(abs, fstatSync(fd), maxBytes));
    let at = 0;
    while (at < buf.length) {
      const n = readSync(fd, buf, at, buf.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return at === buf.length ? buf : buf.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

/**
 * readRegularFile without the event loop's thread: the same non-blocking open and fstat check, through
 * fs/promises. For walks over many files (the JS Grep backend).
 */
export async function readRegularFileAsync(abs: string, maxBytes: number): Promise<Buffer> {
  const fh = await open(abs, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    const size = readableSize(abs, await fh.stat(), maxBytes);
    if (size === 0) return Buffer.alloc(0);
    // At most the size seen at the open: a file that grows meanwhile is read only that far.
    const chunks: Buffer[] = [];
    for await (const chunk of fh.createReadStream({ start: 0, end: size - 1, autoClose: false })) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } finally {
    await fh.close();
  }
}
