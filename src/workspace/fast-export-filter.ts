/*
 * A `git fast-export --no-data` stream rewritten on its way into `git fast-import` (agent-git.ts): every
 * file entry that names a blob judged secret gets the placeholder of its path instead; everything else
 * is passed through byte for byte. Only what fast-export writes with the options agent-git.ts uses is
 * understood (commit, reset, tag; `M`, `D`, `deleteall` entries).
 */
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';

/** Reads lines and counted byte blocks from a stream, without copying more than once. */
export class StreamReader {
  private chunks: Buffer[] = [];
  private size = 0;
  private ended = false;
  private readonly it: AsyncIterator<Buffer>;

  constructor(stream: Readable) {
    this.it = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  private async more(): Promise<boolean> {
    if (this.ended) return false;
    const r = await this.it.next();
    if (r.done) {
      this.ended = true;
      return false;
    }
    this.chunks.push(r.value);
    this.size += r.value.length;
    return true;
  }

  private take(n: number): Buffer {
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length ? [rest] : [];
    this.size = rest.length;
    return out;
  }

  /** The next line (latin1, one char per byte, without its LF), or undefined at the end. */
  async line(): Promise<string | undefined> {
    for (let from = 0; ;) {
      const joined = this.chunks.length > 1 ? Buffer.concat(this.chunks, this.size) : this.chunks[0];
      if (joined && this.chunks.length > 1) this.chunks = [joined];
      const nl = joined ? joined.indexOf(10, from) : -1;
      if (nl >= 0) return this.take(nl + 1).toString('latin1', 0, nl);
      from = this.size;
      if (!(await this.more())) return this.size ? this.take(this.size).toString('latin1') : undefined;
    }
  }

  /** Exactly `n` bytes (fewer only at the end of the stream). */
  async bytes(n: number): Promise<Buffer> {
    while (this.size < n && (await this.more()));
    return this.take(Math.min(n, this.size));
  }
}

/** A path as fast-export writes it (C-quoted when it holds special characters) → the path. */
export function unquotePath(p: string): string {
  if (!p.startsWith('"') || !p.endsWith('"')) return Buffer.from(p, 'latin1').toString('utf8');
  const esc: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  const bytes: number[] = [];
  for (let i = 1; i < p.length - 1; i++) {
    const c = p[i]!;
    if (c !== '\\') {
      bytes.push(c.charCodeAt(0));
      continue;
    }
    const n = p[i + 1] ?? '';
    if (/[0-7]/.test(n)) {
      bytes.push(parseInt(p.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(esc[n] ?? n.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The file entries of a `--no-data` export: [blob id, path] of every `M` entry that names a blob. */
export async function* fileEntries(input: Readable): AsyncGenerator<[string, string]> {
  const r = new StreamReader(input);
  for (let line = await r.line(); line !== undefined; line = await r.line()) {
    const data = /^data (\d+)$/.exec(line);
    if (data) {
      await r.bytes(Number(data[1]));
      continue;
    }
    const m = /^M (100644|100755|120000) ([0-9a-f]{40,64}) (.*)$/.exec(line);
    if (m) yield [m[2]!, unquotePath(m[3]!)];
  }
}

export interface FilterRules {
  /** Is this blob (its id) to be left out? */
  secret(oid: string): boolean;
  /** The bytes a left-out blob's path shows instead. */
  placeholder(path: string, oid: string): string;
  /** Every commit goes to this ref (fast-export names a commit by the revision it was asked for). */
  ref: string;
}

/** Which fast-import mark each exported commit (by its original id) got. */
export type CommitMarks = Map<string, string>;

async function put(out: Writable, b: Buffer | string): Promise<void> {
  if (!out.write(typeof b === 'string' ? Buffer.from(b, 'latin1') : b)) await once(out, 'drain');
}

/**
 * Copies a `--no-data --show-original-ids` export to fast-import: the file entries keep naming their
 * blobs by id (the store already holds the ones that are not secret), and each entry naming a secret
 * blob gets the placeholder of its path, inline.
 */
export async function filterExport(input: Readable, out: Writable, rules: FilterRules): Promise<CommitMarks> {
  const r = new StreamReader(input);
  const marks: CommitMarks = new Map();
  for (let line = await r.line(); line !== undefined; line = await r.line()) {
    if (line.startsWith('commit ')) await commit(r, out, rules, marks);
    else if (line.startsWith('tag ')) await skipTag(r);
    else if (line === 'blob') throw new Error('fast-export wrote a blob: the export must be made with --no-data');
    // `reset <ref>` (and its `from`), `feature`, `progress`, blank lines: not needed, the base is found by its mark.
  }
  await put(out, 'done\n');
  return marks;
}

async function commit(r: StreamReader, out: Writable, rules: FilterRules, marks: CommitMarks): Promise<void> {
  const head: string[] = [];
  let mark = '';
  let message: Buffer = Buffer.alloc(0);
  for (let line = await r.line(); line !== undefined; line = await r.line()) {
    if (line.startsWith('mark ')) mark = line.slice(5);
    if (line.startsWith('original-oid ')) {
      marks.set(line.slice(13), mark);
      continue;
    }
    if (line.startsWith('data ')) {
      message = await r.bytes(Number(line.slice(5)));
      break;
    }
    head.push(line);
  }
  const ops: string[] = [];
  for (let line = await r.line(); line !== undefined && line !== ''; line = await r.line()) ops.push(line);
  // A commit whose parents were not exported is a root: the ref is reset first, so fast-import gives it no parent.
  const root = !ops.some((o) => o.startsWith('from '));
  await put(out, `${root ? `reset ${rules.ref}\n\n` : ''}commit ${rules.ref}\n${head.join('\n')}\ndata ${message.length}\n`);
  await put(out, message);
  const lines: string[] = [];
  for (const op of ops) {
    const m = /^M (\d+) ([0-9a-f]{40,64}) (.*)$/.exec(op);
    if (!m || m[1] === '160000' || !rules.secret(m[2]!)) {
      lines.push(op);
      continue;
    }
    const text = Buffer.from(rules.placeholder(unquotePath(m[3]!), m[2]!), 'utf8');
    lines.push(`M ${m[1]} inline ${m[3]}\ndata ${text.length}\n${text.toString('latin1')}`);
  }
  await put(out, `\n${lines.join('\n')}\n\n`);
}

async function skipTag(r: StreamReader): Promise<void> {
  for (let line = await r.line(); line !== undefined; line = await r.line()) {
    if (line.startsWith('data ')) {
      await r.bytes(Number(line.slice(5)));
      return;
    }
  }
}
