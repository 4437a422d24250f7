/**
 * The small promises of the release: doctor's Node floor is package.json's `engines`; the schema URL
 * that `init` writes is the schema's `$id`; every example workflow uses the Action at `@v1` with a
 * comment saying what that means before the first release.
 */
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { checkNode, NODE_FLOOR } from '../../src/hosts/cli/doctor/machine-checks.js';
import { initCommand } from '../../src/hosts/cli/init-command.js';
import { tempDir } from '../kit/temp.js';

describe('release details', () => {
  it('doctor - the Node check is the engines floor (20.12): 20.11 fails with the fix, 20.12 passes', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(`>=${NODE_FLOOR.join('.')}`);
    expect(checkNode('20.11.1')).toEqual({
      name: 'node',
      status: 'fail',
      detail: 'v20.11.1 is too old (proofpr needs 20.12 or later)',
      fix: 'install Node.js 20.12 or later',
    });
    expect(checkNode('20.12.0').status).toBe('ok');
    expect(checkNode('22.1.0').status).toBe('ok');
  });

  it('init - the schema URL written into .github/proofpr.yml is the schema $id (a repository where nothing is detected gets a valid file)', async () => {
    const dir = tempDir('proofpr-init-schema-');
    try {
      execFileSync('git', ['init', '-q', dir]);
      expect(await initCommand({ repo: dir }, () => undefined)).toBe(0);
      const first = readFileSync(join(dir, '.github', 'proofpr.yml'), 'utf8').split('\n')[0];
      const schema = JSON.parse(readFileSync('docs/proofpr.schema.json', 'utf8')) as { $id: string };
      expect(first).toBe(`# yaml-language-server: $schema=${schema.$id}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('examples - every workflow uses proofpr/proofpr@v1 under a comment on the tag', () => {
    const files = readdirSync('examples/workflows').filter((f) => f.endsWith('.yml'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const lines = readFileSync(join('examples/workflows', f), 'utf8').split('\n');
      const uses = lines.flatMap((l, i) => (/uses: proofpr\/proofpr@/.test(l) ? [i] : []));
      expect(uses.length).toBeGreaterThan(0);
      for (const i of uses) {
        expect(lines[i]!.trim()).toBe('uses: proofpr/proofpr@v1');
        expect(lines.slice(Math.max(0, i - 2), i).join('\n')).toContain('# @v1 follows every 1.x release');
      }
    }
  });
});
