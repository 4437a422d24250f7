/** `proofpr config check` on a file with `_extends`: valid (the App and the Action merge it), the rest checked. */
import { describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configCheckCommand } from '../../src/hosts/cli/config-check-command.js';
import { tempDir } from '../kit/temp.js';

function repoWithConfig(yaml: string): string {
  const dir = tempDir('proofpr-config-check-');
  mkdirSync(join(dir, '.github'));
  writeFileSync(join(dir, '.github', 'proofpr.yml'), yaml);
  return dir;
}

async function check(dir: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await configCheckCommand(
    { repo: dir },
    (s) => (out += s),
    (s) => (err += s),
  );
  return { code, out, err };
}

describe('config check and _extends', () => {
  it('_extends is accepted and named as not read here; the file’s own keys are checked', async () => {
    const r = await check(repoWithConfig('_extends: acme/.github:proofpr.yml\ntest:\n  command: npm test\n'));
    expect(r.code).toBe(0);
    expect(r.out).toContain('.github/proofpr.yml is valid');
    expect(r.out).toContain('_extends: acme/.github:proofpr.yml is merged under this file when proofpr reads it through GitHub');
  });

  it('a bad key next to _extends is still an error, with its suggestion', async () => {
    const r = await check(repoWithConfig('_extends: acme/.github\ntest:\n  comand: npm test\n'));
    expect(r.code).toBe(2);
    expect(r.err).toContain('test.comand: unknown key: did you mean `command`?');
    expect(r.err).not.toContain('_extends');
  });
});
