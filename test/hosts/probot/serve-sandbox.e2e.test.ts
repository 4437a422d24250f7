import { afterEach, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { testPrivateKey } from './harness.js';
import { tempDir } from '../../kit/temp.js';

let home: string | undefined;
afterEach(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

describe('proofpr serve - the sandbox state at start', () => {
  it('serve - a bwrap that cannot create namespaces is said at start, with its own error', async () => {
    home = tempDir('proofpr-serve-box-');
    const bin = join(home, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n');
    chmodSync(join(bin, 'bwrap'), 0o755);
    const env = {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      APP_ID: '1',
      PRIVATE_KEY: testPrivateKey(),
      WEBHOOK_SECRET: 's',
      PROOFPR_HOME: home,
      PROOFPR_SWEEP_SCHEDULER: 'off',
      PORT: '0',
      ANTHROPIC_API_KEY: 'sk-ant-test-0123456789',
    };
    const child = spawn(process.execPath, [resolve('bin/proofpr.js'), 'serve'], { env, cwd: home });
    let stderr = '';
    await new Promise<void>((ok) => {
      const t = setTimeout(ok, 50_000);
      child.stderr.on('data', (b: Buffer) => {
        stderr += b.toString();
        if (/sandbox: /.test(stderr)) {
          clearTimeout(t);
          ok();
        }
      });
      child.on('exit', () => {
        clearTimeout(t);
        ok();
      });
    });
    child.kill('SIGKILL');
    expect(stderr).toContain(
      'proofpr serve: WARNING sandbox: none for repositories with sandbox: auto: no sandbox: bubblewrap cannot create namespaces here (bwrap said: bwrap: No permissions to create new namespace)',
    );
  });
});
