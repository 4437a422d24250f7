import { afterAll } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeObserver } from '../../../src/agent/verification/test-results/observe/node-observer.js';
import { reportsDir } from '../../../src/agent/verification/test-results/observe/types.js';
import { runnerNamed } from '../../../src/agent/verification/test-results/runners/index.js';
import type { RunnerReport } from '../../../src/agent/verification/test-results/runners/types.js';
import { tempDir } from '../../kit/temp.js';

/** Helpers of the node observer tests: temp projects on real runners, commands run as written. */
/** This repository's node_modules (real runners: jest, vitest, mocha, c8, nyc, jasmine). */
const NODE_MODULES = fileURLToPath(new URL('../../../node_modules', import.meta.url));
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

function temp(prefix: string): string {
  const d = tempDir(prefix);
  temps.push(d);
  return d;
}

/** A project folder with these files and node_modules linked to this repository's. */
export function project(files: Record<string, string>): string {
  const root = temp('proofpr-obs-proj-');
  for (const [p, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), content);
  }
  symlinkSync(NODE_MODULES, join(root, 'node_modules'));
  return root;
}

/** The environment a command gets without the observer (the outer jest's worker id left out). */
export function baseEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, ...extra };
  delete env.JEST_WORKER_ID;
  return env;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}
export interface Observed extends Run {
  reports: Array<{ runner: string; file: string; report: RunnerReport | undefined }>;
}

export function run(cwd: string, command: string, env: Record<string, string | undefined>): Run {
  const r = spawnSync('bash', ['-c', command], { cwd, env, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs `command` as written, with only the observer's files and environment added; parses every report. */
export function observe(cwd: string, command: string, extra: Record<string, string> = {}): Observed {
  const dir = temp('proofpr-obs-dir-');
  for (const f of nodeObserver.files(dir)) {
    mkdirSync(dirname(f.path), { recursive: true });
    writeFileSync(f.path, f.content);
  }
  const base = baseEnv(extra);
  const r = run(cwd, command, { ...base, ...nodeObserver.env(dir, base) });
  let names: string[] = [];
  try {
    names = readdirSync(reportsDir(dir)).sort();
  } catch {
    names = [];
  }
  const reports = names.map((file) => {
    const runner = /^(.+)-\d+-\d+\.report$/.exec(file)?.[1] ?? '?';
    return { runner, file, report: runnerNamed(runner)?.parse(readFileSync(join(reportsDir(dir), file), 'utf8'), cwd) };
  });
  return { ...r, reports };
}

export const ids = (r: RunnerReport | undefined) => (r?.tests ?? []).map((t) => `${t.outcome} ${t.id}`).sort();
/** Output with run times taken out (they differ between two runs). */
export const steady = (s: string) => s.replace(/\d+(\.\d+)?\s?m?s\b/g, 'T');

export const JEST_MATH = {
  'math.js': 'exports.add = (a, b) => a + b;\n',
  'math.test.js':
    "const { add } = require('./math');\ntest('adds', () => expect(add(1, 2)).toBe(3));\ntest('is wrong', () => expect(add(1, 1)).toBe(3));\n",
};

/** A test that records the argv it sees in a plain run (RECORD_ARGV set) and asserts the same argv otherwise. */
export const ARGV_CHECK = `const fs = require('fs');
const path = require('path');
const seen = () => {
  const f = path.join(__dirname, 'argv.json');
  if (process.env.RECORD_ARGV) fs.writeFileSync(f, JSON.stringify(process.argv));
  return { now: process.argv, plain: JSON.parse(fs.readFileSync(f, 'utf8')) };
};
`;

export const MOCHA_SPEC = `const assert = require('assert');
describe('add', () => {
  it('adds', () => assert.strictEqual(1 + 1, 2));
  it.skip('later', () => {});
});
`;
