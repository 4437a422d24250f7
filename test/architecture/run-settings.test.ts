/**
 * The agent core receives a small typed settings object built once in run/, never the repository config;
 * `test.command` has one copy in it.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { runSettingsOf } from '../../src/run/run-settings.js';
import type { RunSettings } from '../../src/agent/settings.js';
import type { VerifierOptions } from '../../src/agent/verification/verifier-context.js';
import type { RunStep } from '../../src/run/run-step.js';
import type { assembleAgent } from '../../src/run/assemble-agent.js';

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
const importsOf = (file: string): string[] => readFileSync(file, 'utf8').match(/^import[^;]*?from\s+'[^']+';/gms) ?? [];

// Compile-time: the core's entry points take the settings, and the verifier has no `config` option.
const verifierTakesSettings: VerifierOptions['settings'] extends RunSettings ? true : false = true;
const verifierHasNoConfig: 'config' extends keyof VerifierOptions ? false : true = true;
const assembleTakesStep: Parameters<typeof assembleAgent>[0] extends RunStep ? true : false = true;

describe('architecture - run settings for the agent core', () => {
  it('run settings - no file under src/agent imports the repository config type', () => {
    const offenders = sources('src/agent').flatMap((f) =>
      importsOf(f)
        .filter((i) => /\bRepoConfig\b/.test(i))
        .map((i) => `${relative('.', f)}: ${i.replace(/\s+/g, ' ')}`),
    );
    expect(offenders).toEqual([]);
    expect([verifierTakesSettings, verifierHasNoConfig, assembleTakesStep]).toEqual([true, true, true]);
  });

  it('run settings - built in one place of run/, from the resolved config', () => {
    const callers = sources('src').filter((f) => /\brunSettingsOf\(/.test(readFileSync(f, 'utf8')) && !f.endsWith('run-settings.ts'));
    // run-task.ts: a run with the agent; verify-task.ts: `proofpr verify`'s run, the head commit in the agent's place.
    expect(callers.map((f) => relative('.', f)).sort()).toEqual([join('src', 'run', 'run-task.ts'), join('src', 'run', 'verify-task.ts')]);
  });

  it('run settings - test.command appears once; only what the core reads is there', () => {
    const config = parseRepoConfig('test:\n  command: npm run unit-check-7f3a\nmax_turns: 12\ntimeout_min: 2\n');
    const settings = runSettingsOf(config);
    expect(JSON.stringify(settings).split('npm run unit-check-7f3a').length - 1).toBe(1);
    expect(Object.keys(settings).sort()).toEqual(['gates', 'hooks', 'limits', 'permissions', 'test', 'verify']);
    expect(settings.limits).toEqual({ maxTurns: 12, maxCostUsd: config.max_cost_usd, timeoutMs: 120_000 });
    expect(settings.test).not.toBe(config.test);
  });
});
