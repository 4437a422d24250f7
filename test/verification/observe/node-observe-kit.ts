/** Helpers of the node observer tests: temp projects on real runners, commands run as written. */
import { chmodSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeObserver } from '../../../src/agent/verification/test-results/observe/node-observer.js';
import { tempProject } from '../../kit/verify-files.js';
import { ids, readReports, runObserved, type Env, type ObservedReport, type Run } from '../../kit/verify-observe.js';

export { ids, run, steady, type Run } from '../../kit/verify-observe.js';

/** This repository's node_modules (real runners: jest, vitest, mocha, c8, nyc, jasmine). */
const NODE_MODULES = fileURLToPath(new URL('../../../node_modules', import.meta.url));

/** A project folder with these files and node_modules linked to this repository's. */
export function project(files: Record<string, string>): string {
  const root = tempProject(files, 'proofpr-obs-proj-');
  symlinkSync(NODE_MODULES, join(root, 'node_modules'));
  return root;
}

/** An executable `node_modules/.bin/<name>` under root, linked to `target` (relative to .bin, as npm links a package's bin). */
export function linkBin(root: string, name: string, target: string): void {
  const bin = join(root, 'node_modules/.bin');
  mkdirSync(bin, { recursive: true });
  chmodSync(join(bin, target), 0o755);
  symlinkSync(target, join(bin, name));
}

/** The environment a command gets without the observer (the outer jest's worker id left out). */
export function baseEnv(extra: Record<string, string> = {}): Env {
  const env: Env = { ...process.env, ...extra };
  delete env.JEST_WORKER_ID;
  return env;
}

export interface Observed extends Run {
  reports: ObservedReport[];
}

/** Runs `command` as written, with only the observer's files and environment added; parses every report. */
export function observe(cwd: string, command: string, extra: Record<string, string> = {}): Observed {
  const { dir, ...r } = runObserved(nodeObserver, cwd, command, baseEnv(extra));
  return { ...r, reports: readReports(dir, cwd).reports };
}

/** What an observed run shows: its exit status, the runner of each report, and the first report's tests (`outcome id`, sorted). */
export const summary = (o: Observed) => ({ code: o.code, runners: o.reports.map((r) => r.runner), tests: ids(o.reports[0]?.report) });

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
