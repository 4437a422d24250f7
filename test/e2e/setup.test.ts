import { describe, expect, it } from '@jest/globals';
import { demoFix } from '../kit/e2e-script.js';
import { demoConfig, runScripted } from './helpers.js';

const fix = demoFix();

describe('setup command', () => {
  it('setup - runs before the agent and the run goes on', async () => {
    const { res, model } = await runScripted(fix, { config: demoConfig('setup:\n  command: "node --version"\n') });
    expect(res.evidence.verdict).toBe('verified');
    expect(model.requests.length).toBe(4);
  });

  it('setup - a failing setup command aborts before any model call, naming setup.command', async () => {
    const { res, model } = await runScripted(fix, { config: demoConfig('setup:\n  command: "echo broken-install >&2; exit 7"\n') });
    expect(res.evidence.verdict).toBe('aborted');
    expect(res.exitCode).toBe(4);
    expect(res.evidence.reason).toContain('setup.command');
    expect(res.evidence.reason).toContain('broken-install');
    expect(model.requests.length).toBe(0);
  });
});
