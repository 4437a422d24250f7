/**
 * A lock file whose package manager is not installed (pnpm-lock.yaml, no pnpm on PATH): never an
 * internal error. corepack cannot download pnpm offline, so readiness stops (exit 3 for the hosts)
 * with the fix named, before any model request.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo, runOn } from './kit.js';
import { text } from '../../../src/model/scripted.js';

jest.setTimeout(60_000);

/** This machine's PATH without any folder that holds a pnpm binary. */
function pathWithoutPnpm(): string {
  return (process.env.PATH ?? '')
    .split(':')
    .filter((d) => d !== '' && !existsSync(join(d, 'pnpm')))
    .join(':');
}

describe('a lock file whose package manager is missing', () => {
  it('pnpm lock, pnpm absent: readiness stops with the fix named, no model request, no internal error', async () => {
    const repo = makeRepo({
      'package.json': `${JSON.stringify({ name: 'p', version: '1.0.0', packageManager: 'pnpm@8.15.0', scripts: { test: 'node --test' } }, null, 2)}\n`,
      'pnpm-lock.yaml': "lockfileVersion: '6.0'\n",
      'lib/one.js': 'exports.one = () => 2;\n',
      'test/one.test.js':
        "const test = require('node:test');\nconst assert = require('node:assert');\nconst { one } = require('../lib/one.js');\ntest('one', () => assert.strictEqual(one(), 1));\n",
    });
    const { res, model } = await runOn(repo, [{ content: [text('Done.')] }], 'test:\n  command: pnpm test\n', {
      PATH: pathWithoutPnpm(),
      COREPACK_ENABLE_NETWORK: '0',
    });
    expect(model.requests).toHaveLength(0);
    expect(res.evidence.verdict).not.toBe('verified');
    expect(JSON.stringify(res.evidence)).not.toMatch(/internal error/i);
    expect(res.evidence.reason).toMatch(/^not ready, nothing was spent: pnpm is not installed and corepack could not provide it/);
    expect(res.evidence.reason).toMatch(/run `corepack enable`.* or install pnpm/);
  });
});
