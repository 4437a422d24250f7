import { describe, expect, it } from '@jest/globals';
import { Readable, Writable } from 'node:stream';
import { fileEntries, filterExport, unquotePath } from '../../src/workspace/fast-export-filter.js';

/*
 * The rewrite of a `git fast-export --no-data --show-original-ids` stream on its way to fast-import
 * (src/workspace/agent-git.ts). The real export and import run in test/security/agent-git.integration.test.ts.
 */

const A = 'a'.repeat(40);
const S = 'b'.repeat(40);
const SUB = 'c'.repeat(40);
const msg = 'fix: M 100644 not-an-entry\n';
const EXPORT = [
  'reset refs/heads/main',
  'commit 1111111111111111111111111111111111111111',
  'mark :1',
  'original-oid 1111111111111111111111111111111111111111',
  'author A <a@b> 1 +0000',
  'committer A <a@b> 1 +0000',
  `data ${Buffer.byteLength(msg)}`,
  `${msg}M 100644 ${A} README.md`,
  `M 100644 ${S} "config/\\303\\251t\\303\\251.env"`,
  `M 160000 ${SUB} vendor/sub`,
  '',
  'commit 1111111111111111111111111111111111111111',
  'mark :2',
  'original-oid 2222222222222222222222222222222222222222',
  'author A <a@b> 2 +0000',
  'committer A <a@b> 2 +0000',
  'data 4',
  'two',
  'from :1',
  `M 100755 ${S} bin/run`,
  'D old.txt',
  '',
  '',
].join('\n');

async function run(text: string): Promise<{ out: string; marks: Map<string, string> }> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(c: Buffer, _e, cb) {
      chunks.push(c);
      cb();
    },
  });
  // One byte at a time: lines and counted blocks split anywhere.
  const input = Readable.from([...Buffer.from(text, 'utf8')].map((b) => Buffer.from([b])));
  const marks = await filterExport(input, sink, { ref: 'refs/heads/x', secret: (oid) => oid === S, placeholder: (p) => `masked ${p}\n` });
  return { out: Buffer.concat(chunks).toString('utf8'), marks };
}

describe('fast-export filter', () => {
  it('filter - a left-out blob is named by no entry: each of its paths gets its placeholder inline', async () => {
    const { out } = await run(EXPORT);
    expect(out).not.toContain(S);
    expect(out).toContain(`M 100644 ${A} README.md`);
    expect(out).toContain(
      `M 100644 inline "config/\\303\\251t\\303\\251.env"\ndata ${Buffer.byteLength('masked config/été.env\n')}\nmasked config/été.env\n`,
    );
    expect(out).toContain('M 100755 inline bin/run\ndata 15\nmasked bin/run\n');
    expect(out).toContain('D old.txt');
  });

  it('filter - a submodule entry (160000) names a commit, never a blob: it is kept', async () => {
    const secretSub = await run(EXPORT.replace(`M 160000 ${SUB}`, `M 160000 ${S}`));
    expect(secretSub.out).toContain(`M 160000 ${S} vendor/sub`);
  });

  it('filter - a commit message is copied by its byte count, a root commit resets the ref, and each original id maps to its mark', async () => {
    const { out, marks } = await run(EXPORT);
    expect(out).toContain(`data ${Buffer.byteLength(msg)}\n${msg}\n`);
    expect(out.startsWith('reset refs/heads/x\n\ncommit refs/heads/x\n')).toBe(true);
    expect(out.match(/^reset /gm)).toHaveLength(1);
    expect(out).toContain('from :1');
    expect(out.trimEnd().endsWith('done')).toBe(true);
    expect([...marks]).toEqual([
      ['1111111111111111111111111111111111111111', ':1'],
      ['2222222222222222222222222222222222222222', ':2'],
    ]);
  });

  it('filter - a blob in the stream is refused (the export must carry no data)', async () => {
    await expect(run('blob\nmark :1\ndata 1\nx\n')).rejects.toThrow(/--no-data/);
  });

  it('fileEntries - lists the blob of every file entry with its path, not a submodule, not a line of a message', async () => {
    const seen: Array<[string, string]> = [];
    for await (const e of fileEntries(Readable.from([Buffer.from(EXPORT)]))) seen.push(e);
    expect(seen).toEqual([
      [A, 'README.md'],
      [S, 'config/été.env'],
      [S, 'bin/run'],
    ]);
  });

  it.each([
    ['plain', 'src/a.ts', 'src/a.ts'],
    ['quoted with escapes', '"a\\tb\\"c\\\\d"', 'a\tb"c\\d'],
    ['octal UTF-8', '"\\346\\227\\245.txt"', '日.txt'],
  ])('unquotePath - %s', (_what, raw, path) => {
    expect(unquotePath(raw)).toBe(path);
  });
});
