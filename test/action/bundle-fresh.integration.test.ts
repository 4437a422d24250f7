import { describe, it, expect } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../kit/temp.js';

describe('dist/ bundle', () => {
  it('bundle - the committed dist/ is what scripts/build-action.mjs builds from the current sources', () => {
    const out = tempDir('proofpr-dist-');
    try {
      execFileSync(process.execPath, ['scripts/build-action.mjs', '--outdir', out], { stdio: 'pipe' });
      const files = readdirSync(out).sort();
      expect(readdirSync('dist').sort()).toEqual(files);
      for (const f of files) {
        const same = readFileSync(join(out, f)).equals(readFileSync(join('dist', f)));
        if (!same) throw new Error(`dist/${f} is stale: run \`npm run build:action\` and commit dist/`);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('bundle - action.yml runs dist/index.js on node24 with the inputs and outputs of the contract', () => {
    const yml = readFileSync('action.yml', 'utf8');
    expect(yml).toMatch(/runs:\n {2}using: node24\n {2}main: dist\/index\.js/);
    const section = (name: string) =>
      [
        ...(yml
          .split(`\n${name}:\n`)[1]
          ?.split(/\n\S/)[0]
          ?.matchAll(/^ {2}(\w+):$/gm) ?? []),
      ].map((m) => m[1]);
    expect(section('inputs')).toEqual([
      'anthropic_api_key',
      'github_token',
      'trigger',
      'prompt',
      'mode',
      'config',
      'model',
      'max_turns',
      'max_cost_usd',
      'test_command',
    ]);
    expect(section('outputs')).toEqual(['verdict', 'branch', 'pr_number', 'pr_url', 'evidence_path']);
    expect(yml).toContain('default: ${{ github.token }}');
  });
});
