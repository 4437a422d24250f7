/**
 * The one way a run-folder file is written while the run is on (tool outputs, the harness's test-run
 * outputs, the runners' reports): every byte passes the redactor before it reaches the disk, so a run
 * that is killed (the watchdog, a crash) leaves nothing unredacted behind, and a Read of a saved output
 * during the run never sees a token. Known values are the process's secret-named variables
 * (known-values.ts) plus what the caller adds.
 */
import { createWriteStream, mkdirSync, writeFileSync, type WriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { secretValues } from './known-values.js';
import { redactText } from './redact.js';

/** A line longer than this is redacted and written in parts (a token split across two parts is the cost). */
const LINE_MAX = 256 * 1024;

const knownFor = (extra: readonly string[]): string[] => secretValues(process.env, extra);

/** Writes `text` to `path` redacted (the folder is created when missing). */
export async function writeRedactedFile(path: string, text: string, extra: readonly string[] = []): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, redactText(text, knownFor(extra)));
}

/** writeRedactedFile, synchronously. */
export function writeRedactedFileSync(path: string, text: string, extra: readonly string[] = []): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, redactText(text, knownFor(extra)));
}

export interface RedactingSink {
  /** Appends a chunk of the output (bytes past the cap are counted, not written). */
  write(b: Buffer): void;
  /** Flushes the last partial line, adds the cap note when bytes were left out; false when the file could not be written. */
  close(): Promise<boolean>;
}

/**
 * A file written as output arrives: whole lines are redacted and written (a line over LINE_MAX in
 * parts), the partial last line waits for its end. At most `cap` bytes of output are taken, then one
 * note line says how many more there were.
 */
export function openRedactingFile(path: string, opts: { cap: number; extra?: readonly string[] }): RedactingSink {
  const known = knownFor(opts.extra ?? []);
  const decoder = new StringDecoder('utf8');
  let stream: WriteStream | undefined;
  let ok = true;
  let taken = 0;
  let total = 0;
  let carry = '';
  try {
    mkdirSync(dirname(path), { recursive: true });
    stream = createWriteStream(path);
    stream.on('error', () => (ok = false));
  } catch {
    ok = false;
  }
  const emit = (text: string): void => {
    if (text && stream && ok) stream.write(redactText(text, known));
  };
  return {
    write(b) {
      total += b.length;
      if (!stream || !ok || taken >= opts.cap) return;
      const part = taken + b.length > opts.cap ? b.subarray(0, opts.cap - taken) : b;
      taken += part.length;
      const text = carry + decoder.write(part);
      const cut = text.lastIndexOf('\n') + 1;
      if (cut > 0) {
        emit(text.slice(0, cut));
        carry = text.slice(cut);
      } else carry = text;
      if (carry.length > LINE_MAX) {
        emit(carry);
        carry = '';
      }
    },
    close() {
      return new Promise((resolve) => {
        if (!stream) return resolve(false);
        emit(carry + decoder.end());
        carry = '';
        if (total > taken)
          stream.write(`\n[proofpr: output file cap of ${opts.cap} bytes reached; ${total - taken} more bytes were not saved]\n`);
        stream.end(() => resolve(ok));
      });
    },
  };
}
