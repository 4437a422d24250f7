/**
 * Counts you can audit: the harness's count of a run equals what the runner itself prints as its summary.
 *
 * The rule the cases were written by (before the mechanism, issue 38): one repository-shaped project per
 * runner the issue names — uvu, mocha under c8 as ESM, a cargo crate with three integration targets,
 * unit tests and doc-tests, node-tap 21 (test/kit/runner-repos.ts: several files and suites, repeated
 * titles, nested suites, skipped and todo tests, tests that print to stdout and stderr, one of them a
 * fake summary line) — each run twice by the harness, real runner processes: configured (`test.command`
 * set to the runner called straight) and zero-config (the command detection finds). A case is counted
 * exactly when passed, failed and skipped equal the runner's own closing summary, read here by
 * regexes of this file only (uvu `Total/Passed/Skipped`, mocha `N passing/failing/pending`, tap's
 * `# { total, pass, fail, skip, todo }`, cargo's `test result:` lines summed over every target).
 * First try, at e405f65: 0 of 8 counted exactly (uvu not read at all, mocha one short, cargo 43 and 17 of
 * 44, node-tap 4 of 7 passed) (docs/benchmarks.md, "Counts you can audit").
 */
import { symlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it, jest } from '@jest/globals';
import type { TestCounts, TestRun } from '../../src/agent/events.js';
import { harnessTestRun } from '../../src/agent/verification/test-runs/harness-run.js';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { detectCommands } from '../../src/detect/detect-commands.js';
import { tempDir } from '../kit/temp.js';
import { CARGO_CRATE, MOCHA_C8_PROJECT, TAP_PROJECT, UVU_PROJECT } from '../kit/runner-repos.js';
import { withExec } from '../kit/verify-harness.js';
import { makeRepo } from './git-repo.js';
import { linkBin } from './observe/node-observe-kit.js';

// Real runners (cargo compiles a crate) on a shared machine.
jest.setTimeout(300_000);

type Summary = Pick<TestCounts, 'passed' | 'failed' | 'skipped'>;
const num = (s: string | undefined): number => Number(s ?? 0);
const plain = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

/** The runners' own closing summaries, summed over every call in the output. */
const SUMMARY: Record<string, (out: string) => Summary | undefined> = {
  uvu(out) {
    const t = [...out.matchAll(/^\s*Total:\s+(\d+)\s*\n\s*Passed:\s+(\d+)\s*\n\s*Skipped:\s+(\d+)/gm)];
    if (!t.length) return undefined;
    const total = t.reduce((s, m) => s + num(m[1]), 0);
    const passed = t.reduce((s, m) => s + num(m[2]), 0);
    return { passed, failed: total - passed, skipped: t.reduce((s, m) => s + num(m[3]), 0) };
  },
  mocha(out) {
    const all = [...out.matchAll(/^ {2}(\d+) passing \(\w+\)\n(?: {2}(\d+) pending\n)?(?: {2}(\d+) failing\n)?/gm)];
    const m = all.at(-1);
    return m && { passed: num(m[1]), failed: num(m[3]), skipped: num(m[2]) };
  },
  tap(out) {
    const m = [...out.matchAll(/^# \{ total: \d+(.*) \}$/gm)].at(-1);
    if (!m) return undefined;
    const v = (k: string) => num(new RegExp(`\\b${k}: (\\d+)`).exec(m[1] ?? '')?.[1]);
    return { passed: v('pass'), failed: v('fail'), skipped: v('skip') + v('todo') };
  },
  cargo(out) {
    const r = [...out.matchAll(/^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored;/gm)];
    if (!r.length) return undefined;
    const sum = (i: number) => r.reduce((s, m) => s + num(m[i]), 0);
    return { passed: sum(1), failed: sum(2), skipped: sum(3) };
  },
};

interface Case {
  runner: keyof typeof SUMMARY;
  files: Record<string, string>;
  /** test.command when configured (the runner called straight). */
  configured: string;
  node: boolean;
}

const CASES: Case[] = [
  { runner: 'uvu', files: UVU_PROJECT, configured: 'npx uvu tests', node: true },
  { runner: 'mocha', files: MOCHA_C8_PROJECT, configured: 'npx c8 --reporter=text mocha', node: true },
  { runner: 'cargo', files: CARGO_CRATE, configured: 'cargo test', node: false },
  { runner: 'tap', files: TAP_PROJECT, configured: 'npx tap', node: true },
];

/** The harness's run of `command` in a fresh repository of `c`, and the runner's own summary of it. */
async function harnessRunOf(c: Case, mode: 'configured' | 'zero-config'): Promise<{ run: TestRun; summary: Summary | undefined }> {
  const { root } = makeRepo(c.files);
  if (c.node) symlinkSync(resolve('node_modules'), join(root, 'node_modules'));
  const command = mode === 'configured' ? c.configured : (await detectCommands(root)).test?.command;
  if (command === undefined) throw new Error(`nothing detected for ${c.runner}`);
  const config = parseRepoConfig(`test:\n  command: ${JSON.stringify(command)}\n`);
  const outputFile = join(tempDir('proofpr-summary-out-'), 'out.txt');
  return withExec(root, 'off', async (exec, scratchDir) => {
    const { run } = await harnessTestRun({ cwd: root, command, config, exec, scratchDir, kind: 'final', treeHash: '', outputFile });
    const summary = SUMMARY[c.runner]?.(plain(await readFile(outputFile, 'utf8')));
    return { run, summary };
  });
}

const counted = (run: TestRun): Summary | undefined =>
  run.counts ? { passed: run.counts.passed, failed: run.counts.failed, skipped: run.counts.skipped } : undefined;

describe("the harness counts each runner as the runner's own summary does (configured and zero-config)", () => {
  for (const c of CASES) {
    for (const mode of ['configured', 'zero-config'] as const) {
      it(`${c.runner}, ${mode}`, async () => {
        const { run, summary } = await harnessRunOf(c, mode);
        expect(summary).toBeDefined();
        expect({ counts: counted(run), exitCode: run.exitCode }).toEqual({ counts: summary, exitCode: 0 });
        // The runner's own summary was read beside the count, and both agree.
        const runner = c.runner === 'tap' ? 'node-tap' : c.runner;
        expect(run.countCheck?.map((k) => [k.runner, k.agree, k.summary.passed])).toEqual([[runner, true, summary?.passed]]);
      });
    }
  }
});

/** A stand-in for node-tap at its package's entry: prints TAP with one leaf test and a closing line that says three. */
const FAKE_TAP = `#!/usr/bin/env node
console.log(['TAP version 14', '1..1', '# Subtest: test/a.js', '    ok 1 - adds', '    1..1', 'ok 1 - test/a.js', '', '# { total: 3, pass: 3 }'].join('\\n'));
`;

describe('a count that disagrees with the runner’s own summary', () => {
  it('is not trusted: the run has no counts (as when counts could not be read), and countCheck and the note name both', async () => {
    const { root } = makeRepo({
      'package.json': JSON.stringify({ name: 'p', scripts: { test: 'tap' } }),
      'node_modules/tap/bin/run.js': FAKE_TAP,
    });
    linkBin(root, 'tap', '../tap/bin/run.js');
    const config = parseRepoConfig('test:\n  command: npm test\n');
    const run = await withExec(root, 'off', async (exec, scratchDir) => {
      const r = await harnessTestRun({ cwd: root, command: 'npm test', config, exec, scratchDir, kind: 'baseline', treeHash: '' });
      return r.run;
    });
    expect(run.exitCode).toBe(0);
    expect(run.counts).toBeNull();
    expect(run.source).toBe('none');
    expect(run.tests).toBeUndefined();
    expect(run.countCheck).toEqual([
      {
        runner: 'node-tap',
        counted: { passed: 1, failed: 0, skipped: 0, total: 1 },
        summary: { passed: 3, failed: 0, skipped: 0, total: 3 },
        agree: false,
      },
    ]);
    expect(run.note).toContain('node-tap was counted 1 passed, 0 failed, 0 skipped but its own summary says 3 passed, 0 failed, 0 skipped');
    expect(run.calls).toEqual([expect.objectContaining({ runner: 'node-tap', counts: expect.objectContaining({ total: 1 }) })]);
  });
});
