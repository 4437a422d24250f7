import { describe, expect, it } from '@jest/globals';
import { appendFileSync, cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderRunFolder } from '../../src/agent/evidence/render-run.js';
import { tempDir } from '../kit/temp.js';

function copyFixture(name: string): string {
  const dir = join(tempDir('proofpr-rr-'), name);
  cpSync(join(process.cwd(), 'test/fixtures/runs', name), dir, { recursive: true });
  return dir;
}

describe('renderRunFolder', () => {
  it('report command - writes summary.md and report.html from evidence.json and transcript.jsonl', async () => {
    const dir = copyFixture('verified');
    await renderRunFolder(dir, { diff: readFileSync(join(dir, 'changes.diff'), 'utf8'), reportUrl: 'https://example.invalid/r' });
    const md = readFileSync(join(dir, 'summary.md'), 'utf8');
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(md).toMatch(/^## ✅ proofpr: verified/);
    expect(md).toContain('[report.html](https://example.invalid/r)');
    expect(html).toContain('id="turn-6"');
    expect(html).toContain('<span class="add">');
  });

  it('report command - tolerates a truncated last transcript line and a missing transcript', async () => {
    const dir = copyFixture('unverified');
    appendFileSync(join(dir, 'transcript.jsonl'), '{"type":"assistant","ts":"2025-');
    await renderRunFolder(dir);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('id="turn-7"');
    rmSync(join(dir, 'transcript.jsonl'));
    await renderRunFolder(dir);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('The transcript holds no events.');
  });

  it('report command - a broken evidence.json names the field', async () => {
    const dir = copyFixture('verified');
    const ev = JSON.parse(readFileSync(join(dir, 'evidence.json'), 'utf8'));
    ev.verdict = 'great';
    writeFileSync(join(dir, 'evidence.json'), JSON.stringify(ev));
    await expect(renderRunFolder(dir)).rejects.toThrow(/field verdict is invalid/);
    writeFileSync(join(dir, 'evidence.json'), '{');
    await expect(renderRunFolder(dir)).rejects.toThrow(/cannot be read as JSON/);
  });
});
