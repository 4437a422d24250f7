/**
 * RESP2, the Redis wire protocol: encode a command, decode replies from a byte stream that arrives in chunks.
 * Bulk strings decode as UTF-8 strings (as ioredis does by default); an error nested in an array (EXEC)
 * decodes as a `ReplyError` value, a top-level one is returned the same way and the caller rejects with it.
 */

export type RespValue = string | number | null | ReplyError | RespValue[];

export class ReplyError extends Error {
  override name = 'ReplyError';
}

export type CommandArg = string | number | Buffer;

export function encodeCommand(args: readonly CommandArg[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length}\r\n`)];
  for (const a of args) {
    const b = Buffer.isBuffer(a) ? a : Buffer.from(String(a), 'utf8');
    parts.push(Buffer.from(`$${b.length}\r\n`), b, Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
}

const INCOMPLETE = Symbol('incomplete');
type Parsed = { value: RespValue; end: number } | typeof INCOMPLETE;

function lineEnd(buf: Buffer, from: number): number {
  const i = buf.indexOf('\r\n', from, 'latin1');
  return i;
}

function parseAt(buf: Buffer, pos: number): Parsed {
  if (pos >= buf.length) return INCOMPLETE;
  const eol = lineEnd(buf, pos + 1);
  if (eol < 0) return INCOMPLETE;
  const type = String.fromCharCode(buf[pos] as number);
  const line = buf.toString('utf8', pos + 1, eol);
  const next = eol + 2;
  switch (type) {
    case '+':
      return { value: line, end: next };
    case '-':
      return { value: new ReplyError(line), end: next };
    case ':':
      return { value: Number(line), end: next };
    case '$': {
      const len = Number(line);
      if (len < 0) return { value: null, end: next };
      if (buf.length < next + len + 2) return INCOMPLETE;
      return { value: buf.toString('utf8', next, next + len), end: next + len + 2 };
    }
    case '*': {
      const n = Number(line);
      if (n < 0) return { value: null, end: next };
      const items: RespValue[] = [];
      let at = next;
      for (let i = 0; i < n; i++) {
        const item = parseAt(buf, at);
        if (item === INCOMPLETE) return INCOMPLETE;
        items.push(item.value);
        at = item.end;
      }
      return { value: items, end: at };
    }
    default:
      throw new Error(`RESP: unexpected type byte ${JSON.stringify(type)}: the server is not speaking Redis protocol`);
  }
}

/** Feed chunks; get back every complete reply, in order. */
export class RespDecoder {
  private buf: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): RespValue[] {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    const out: RespValue[] = [];
    let pos = 0;
    for (;;) {
      const r = parseAt(this.buf, pos);
      if (r === INCOMPLETE) break;
      out.push(r.value);
      pos = r.end;
    }
    this.buf = pos === this.buf.length ? Buffer.alloc(0) : this.buf.subarray(pos);
    return out;
  }

  reset(): void {
    this.buf = Buffer.alloc(0);
  }
}
