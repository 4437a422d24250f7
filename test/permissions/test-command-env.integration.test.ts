import { describe, it, expect } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { createPolicy } from '../../src/agent/permissions/create-policy.js';
import { tempDir } from '../kit/temp.js';

const root = tempDir('proofpr-test-env-');
execFileSync('git', ['init', '-q'], { cwd: root });

describe('the environment prefix of test.command itself', () => {
  it('policy - `PYTHONPATH=src python3 -m unittest` as test.command: the agent may run it as configured, no other value or name', async () => {
    const policy = await createPolicy({ root, mode: 'default', allow: [], deny: [], testCommand: 'PYTHONPATH=src python3 -m unittest' });
    const bash = (command: string) => policy.check('Bash', { command });
    expect(await bash('PYTHONPATH=src python3 -m unittest')).toMatchObject({ behavior: 'allow' });
    expect(await bash('PYTHONPATH=src python3 -m unittest tests.test_misc')).toMatchObject({ behavior: 'allow' });
    expect(await bash('PYTHONPATH=/tmp/evil python3 -m unittest')).toMatchObject({ behavior: 'deny', rule: 'builtin-deny:env:PYTHONPATH' });
    expect(await bash('LD_PRELOAD=x.so PYTHONPATH=src python3 -m unittest')).toMatchObject({
      behavior: 'deny',
      rule: 'builtin-deny:env:LD_PRELOAD',
    });
    // The prefix does not open other commands: they need their own rule.
    expect(await bash('PYTHONPATH=src python3 evil.py')).not.toMatchObject({ behavior: 'allow' });
    const plain = await createPolicy({ root, mode: 'default', allow: [], deny: [], testCommand: 'python3 -m unittest' });
    expect(await plain.check('Bash', { command: 'PYTHONPATH=src python3 -m unittest' })).toMatchObject({
      behavior: 'deny',
      rule: 'builtin-deny:env:PYTHONPATH',
    });
  });
});
