import { describe, it, expect } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inputEnvName, parseActionInputs } from '../../src/config/action-inputs.js';
import { writeOutputs } from '../../src/hosts/action/outputs.js';
import { workspacePath } from '../../src/hosts/action/main.js';
import { tempDir } from '../kit/temp.js';

describe('action inputs and outputs', () => {
  it('inputs - read from INPUT_* the way the runner names them, empty values meaning unset', () => {
    expect(inputEnvName('max cost usd')).toBe('INPUT_MAX_COST_USD');
    const env = {
      INPUT_ANTHROPIC_API_KEY: 'k',
      INPUT_GITHUB_TOKEN: 't',
      INPUT_MAX_TURNS: '12',
      INPUT_MAX_COST_USD: '2.5',
      INPUT_PROMPT: '',
      INPUT_MODE: 'sweep',
    };
    expect(parseActionInputs(env)).toEqual({
      anthropicApiKey: 'k',
      githubToken: 't',
      trigger: '/agent',
      mode: 'sweep',
      config: '.github/proofpr.yml',
      maxTurns: 12,
      maxCostUsd: 2.5,
    });
  });

  it('inputs - never echo a key or token value in the error', () => {
    expect(() => parseActionInputs({ INPUT_ANTHROPIC_API_KEY: 'k', INPUT_GITHUB_TOKEN: '   ' })).toThrow(/^input github_token: is empty/);
  });

  it('outputs - written in the heredoc form with a delimiter the value does not contain', () => {
    const file = join(tempDir('proofpr-out-'), 'output');
    writeFileSync(file, 'earlier=1\n');
    writeOutputs(file, { verdict: 'verified', pr_url: 'line one\nline two' });
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('earlier=1\n')).toBe(true);
    const m = /^pr_url<<(\S+)\nline one\nline two\n\1$/m.exec(text);
    expect(m).not.toBeNull();
    expect(text).toMatch(/^verdict<<(\S+)\nverified\n\1$/m);
  });

  it('evidence_path - relative to the workspace when inside it, else absolute', () => {
    expect(workspacePath('/w/repo', '/w/repo/.proofpr/runs/1/evidence.json')).toBe('.proofpr/runs/1/evidence.json');
    expect(workspacePath('/w/repo', '/tmp/runner/proofpr/runs/1/evidence.json')).toBe('/tmp/runner/proofpr/runs/1/evidence.json');
  });
});
