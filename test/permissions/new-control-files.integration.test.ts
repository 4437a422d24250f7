import { describe, it, expect } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { policyOver } from '../kit/walls-policy.js';
import { isControlPath } from '../../src/workspace/protected-paths.js';
import { commitWork, wipCommit } from '../../src/workspace/publish.js';
import { sh } from '../workspace/git-fixtures.js';
import { BOT as identity, useCheckouts } from '../kit/walls-checkout.js';

/* Control files that did not exist at the start (issue 23: walled whether or not they exist, checked again at commit). */

const NEW_CONTROL = ['.pre-commit-config.yaml', 'lefthook.yml', '.lefthook.yml', '.husky/pre-commit', '.github/workflows/new.yml'];
const checkout = useCheckouts({ 'README.md': '# r\n' }, 'proofpr/23-c');
const worktree = async () => (await checkout()).wt;

function plant(root: string): void {
  for (const p of NEW_CONTROL) {
    mkdirSync(join(root, p, '..'), { recursive: true });
    writeFileSync(join(root, p), 'repos: []\n');
  }
  writeFileSync(join(root, 'fix.txt'), 'fixed\n');
}

describe('new control files', () => {
  it('new-control - hook runner configs are control paths', () => {
    for (const p of NEW_CONTROL) expect({ p, control: isControlPath(p) }).toEqual({ p, control: true });
    expect(isControlPath('docs/pre-commit-config.md')).toBe(false);
  });

  it('new-control - Write and a shell redirect of a new .pre-commit-config.yaml are refused', async () => {
    const w = await worktree();
    const policy = await policyOver(w.path);
    expect((await policy.check('Write', { file_path: '.pre-commit-config.yaml', content: 'x' })).behavior).toBe('deny');
    expect((await policy.check('Bash', { command: 'echo x > .pre-commit-config.yaml' })).behavior).toBe('deny');
  });

  it('new-control - the commit refuses new control files; the WIP commit leaves them out and keeps the rest', async () => {
    const w = await worktree();
    plant(w.path);
    await expect(commitWork({ worktree: w.path, message: 'm', identity, gitDir: w.gitDir, protect: {} })).rejects.toThrow(
      /\.pre-commit-config\.yaml/,
    );
    const wip = await wipCommit({ worktree: w.path, message: 'm', identity, gitDir: w.gitDir, protect: {} });
    expect('sha' in wip && wip.leftOut?.map((l) => l.path).sort()).toEqual([...NEW_CONTROL].sort());
    const files = sh(w.path, 'ls-tree', '-r', '--name-only', 'HEAD').split('\n').filter(Boolean);
    expect(files.sort()).toEqual(['README.md', 'fix.txt']);
  });
});
