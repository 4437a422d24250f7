/**
 * updateRunFolder, the one writer of a run folder after the run: it merges the patch into evidence.json,
 * replaces summary.md when asked, and every string it writes is redacted (every token shape the secrets
 * module knows, in a CI cause, a check name, a URL and the summary).
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { updateRunFolder } from '../../src/run/update-run-folder.js';
import { evidence } from '../hosts/probot/harness.js';
import { JWT, PEM_BLOCK, SHAPES } from '../security/secrets-shapes.js';
import { tempDir } from '../kit/temp.js';

const ALL = [...Object.values(SHAPES).map((s) => s.text), PEM_BLOCK, JWT].join('\n');
const NEEDLES: Array<[string, string]> = [
  ...Object.entries(SHAPES).map(([id, s]): [string, string] => [id, s.secret]),
  ['pem', 'IBAAKCAQEA'],
  ['jwt', 'eyJzdWIiOiJwcm9vZnByLXRlc3QifQ'],
];

describe('updateRunFolder', () => {
  it('run folder - merges the patch into the evidence on disk and keeps every other field and summary.md', async () => {
    const dir = tempDir('proofpr-runfolder-');
    const ev = evidence('verified', { runId: 'r-1', repo: { baseSha: 'a'.repeat(40), branch: 'proofpr/1-x', headSha: 'c'.repeat(40) } });
    writeFileSync(join(dir, 'evidence.json'), JSON.stringify(ev));
    writeFileSync(join(dir, 'summary.md'), '## proofpr: verified\n');
    const out = await updateRunFolder(dir, { evidence: { pr: { number: 4, url: 'https://example.test/acme/demo/pull/4' } } });
    const onDisk = JSON.parse(readFileSync(join(dir, 'evidence.json'), 'utf8')) as typeof ev;
    expect(onDisk).toEqual({ ...ev, pr: { number: 4, url: 'https://example.test/acme/demo/pull/4' } });
    expect(out.evidence).toEqual(onDisk);
    expect(out.summaryMd).toBe('## proofpr: verified\n');
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toBe('## proofpr: verified\n');
  });

  it("run folder - without evidence.json it starts from the caller's copy, and says what to do when there is none", async () => {
    const dir = tempDir('proofpr-runfolder-');
    const ev = evidence('unverified', { runId: 'r-2' });
    await expect(updateRunFolder(dir, { evidence: { wipRef: 'refs/proofpr/wip/r-2' } })).rejects.toThrow(
      /evidence\.json does not exist.*options\.current/,
    );
    const out = await updateRunFolder(dir, { evidence: { wipRef: 'refs/proofpr/wip/r-2' }, summaryMd: 'kept\n' }, { current: ev });
    expect(out.evidence).toEqual({ ...ev, wipRef: 'refs/proofpr/wip/r-2' });
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toBe('kept\n');
  });

  it('run folder - every token shape in a CI result, a URL and the summary is redacted in evidence.json and summary.md', async () => {
    const dir = tempDir('proofpr-runfolder-');
    writeFileSync(join(dir, 'evidence.json'), JSON.stringify(evidence('verified', { runId: 'r-3' })));
    const out = await updateRunFolder(
      dir,
      {
        evidence: {
          ci: {
            sha: 'c'.repeat(40),
            state: 'failed',
            checks: Object.values(SHAPES).map((s, i) => ({
              name: `check ${i} ${s.text}`,
              conclusion: 'failure',
              url: `https://ci.example.test/${s.text}`,
            })),
            cause: ALL,
          },
        },
        summaryMd: `## proofpr\n\n${ALL}\n`,
      },
      { secrets: ['a-known-value-of-the-run'] },
    );
    const written = [readFileSync(join(dir, 'evidence.json'), 'utf8'), readFileSync(join(dir, 'summary.md'), 'utf8')];
    for (const text of [...written, JSON.stringify(out.evidence), out.summaryMd]) {
      const found = NEEDLES.filter(([, needle]) => text.includes(needle)).map(([id]) => id);
      expect(found).toEqual([]);
    }
    expect(written[0]).toContain('[REDACTED]');
    expect(out.evidence.ci?.sha).toBe('c'.repeat(40));
  });
});
