import { describe, it, expect } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { openRedactingFile, writeRedactedFile, writeRedactedFileSync } from '../../src/secrets/redacting-writer.js';
import { tempDir } from '../kit/temp.js';

/*
 * The run folder's files are written redacted as they are written (issue 23): a run the watchdog kills
 * leaves no token on disk, and a Read of a saved output during the run sees none.
 */

const TOKEN = `ghp_${'Wr1Tok'.repeat(6)}`;
const dir = tempDir('proofpr-redacting-');

const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await wait(20);
  }
}

describe('the redacting writer', () => {
  it('redacting - whole lines reach the disk redacted before close; a token split across chunks and a split character are whole', async () => {
    const file = join(dir, 'a', 'out.txt');
    const sink = openRedactingFile(file, { cap: 1024 * 1024 });
    const line = Buffer.from(`token ${TOKEN} é done\n`);
    const at = line.indexOf('é') + 1; // inside the two bytes of é
    sink.write(line.subarray(0, 10));
    sink.write(line.subarray(10, at));
    sink.write(line.subarray(at));
    sink.write(Buffer.from('partial'));
    await until(() => existsSync(file) && readFileSync(file, 'utf8').includes('done'));
    expect(readFileSync(file, 'utf8')).toBe('token ghp_[REDACTED] é done\n');
    expect(await sink.close()).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('token ghp_[REDACTED] é done\npartial');
  });

  it('redacting - past the cap the output is counted, not written, and one note says so', async () => {
    const file = join(dir, 'cap.txt');
    const sink = openRedactingFile(file, { cap: 10 });
    sink.write(Buffer.from('0123456789abcdef\n'));
    expect(await sink.close()).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('0123456789\n[proofpr: output file cap of 10 bytes reached; 7 more bytes were not saved]\n');
  });

  it('redacting - whole-file writes remove token shapes and the known values given', async () => {
    const a = join(dir, 'w', 'x.txt');
    await writeRedactedFile(a, `a ${TOKEN} b known-value-123\n`, ['known-value-123']);
    expect(readFileSync(a, 'utf8')).toBe('a ghp_[REDACTED] b [REDACTED]\n');
    const b = join(dir, 'w', 'y.txt');
    writeRedactedFileSync(b, `${TOKEN}\n`);
    expect(readFileSync(b, 'utf8')).toBe('ghp_[REDACTED]\n');
  });

  it('redacting - a process killed with its main thread stuck (as the watchdog ends a run) leaves only redacted output', async () => {
    const src = join(dir, 'driver.ts');
    writeFileSync(
      src,
      `import { openRedactingFile } from ${JSON.stringify(resolve('src/secrets/redacting-writer.ts'))};\n` +
        `const sink = openRedactingFile(process.argv[2], { cap: 1 << 20 });\n` +
        `sink.write(Buffer.from('secret ${TOKEN}\\n'));\n` +
        `sink.write(Buffer.from('half a line ${TOKEN}'));\n` +
        `setTimeout(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0), 200);\n`,
    );
    const bundle = join(dir, 'driver.mjs');
    buildSync({ entryPoints: [src], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'silent' });
    const out = join(dir, 'killed', 'tool-output.txt');
    const child = spawn(process.execPath, [bundle, out], { stdio: 'ignore' });
    await until(() => existsSync(out) && readFileSync(out, 'utf8').includes('secret'));
    await wait(300);
    child.kill('SIGKILL');
    await new Promise((r) => child.on('close', r));
    const text = readFileSync(out, 'utf8');
    expect(text).toBe('secret ghp_[REDACTED]\n');
    expect(text).not.toContain(TOKEN);
  }, 20_000);
});
