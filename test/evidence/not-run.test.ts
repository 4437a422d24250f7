/**
 * "Not run here, and why" (seed 000 §7.2, issue 26): the repository's other checks are detected from
 * package.json, the Makefile, tox and the CI workflows; after a run through the loop with the scripted
 * model, the evidence lists those not run with the reason, next to those the agent ran and that passed,
 * and summary.md shows both.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { detectRepoChecks } from '../../src/detect/repo-checks.js';
import { runAgent } from '../../src/agent/loop.js';
import { EventQueue, stamp, type RunEvent } from '../../src/agent/events.js';
import { buildEvidence } from '../../src/agent/evidence/evidence.js';
import { renderSummaryMd } from '../../src/agent/evidence/summary-md.js';
import { createScriptedModel, text, toolUse } from '../../src/model/scripted.js';
import { allowAllPolicy, noHooks } from '../fakes/agent-stubs.js';
import { baseToolContext, collect, plainContext, stubToolbox } from '../agent/helpers.js';
import { tempDir } from '../kit/temp.js';
import { writeFiles } from '../kit/verify-files.js';

describe('not run here, and why', () => {
  let root: string;
  const write = (p: string, t: string): void => writeFiles(root, { [p]: t });
  beforeAll(() => {
    root = tempDir('proofpr-notrun-');
    write(
      'package.json',
      JSON.stringify({
        scripts: { test: 'jest', lint: 'eslint .', typecheck: 'tsc --noEmit', 'test:e2e': 'playwright test', build: 'tsc', pretest: 'x' },
      }),
    );
    write('Makefile', 'lint:\n\teslint .\ncheck: lint\n\tnpm test\nVAR := 1\n');
    write(
      '.github/workflows/ci.yml',
      'jobs:\n  t:\n    steps:\n      - run: npm ci\n      - run: npm run lint\n      - run: cargo clippy --all\n',
    );
  });

  it('detect - checks come from package.json scripts, Makefile targets and CI run steps, once each', async () => {
    expect(await detectRepoChecks(root)).toEqual([
      { kind: 'test', command: 'npm test', source: 'package.json' },
      { kind: 'lint', command: 'npm run lint', source: 'package.json' },
      { kind: 'typecheck', command: 'npm run typecheck', source: 'package.json' },
      { kind: 'e2e', command: 'npm run test:e2e', source: 'package.json' },
      { kind: 'lint', command: 'make lint', source: 'Makefile' },
      { kind: 'test', command: 'make check', source: 'Makefile' },
      { kind: 'lint', command: 'cargo clippy --all', source: '.github/workflows/ci.yml' },
    ]);
  });

  it('loop - the evidence and summary.md list the checks not run with the reason, next to what ran and passed', async () => {
    const events = new EventQueue();
    events.push({ type: 'repo_checks', checks: await detectRepoChecks(root) });
    const model = createScriptedModel([
      { content: [toolUse('Bash', { command: 'npm run lint' }, 'b1'), toolUse('Bash', { command: 'make lint' }, 'b2')] },
      { content: [text('done')] },
    ]);
    const toolbox = stubToolbox({ Bash: (i) => ({ forModel: 'exit', isError: i.command === 'make lint' }) });
    const run = await collect(
      runAgent(
        { prompt: 'go' },
        {
          model,
          modelId: 'claude-sonnet-5-5',
          toolbox,
          policy: allowAllPolicy,
          hooks: noHooks,
          context: plainContext(),
          toolContext: baseToolContext(root),
          budget: { maxTurns: 4, maxCostUsd: 1, timeoutMs: 30_000 },
          costOf: () => 0,
          maxStopBlocks: 0,
          branch: 'proofpr/1-x',
          events,
        },
      ),
    );
    const start = stamp({
      type: 'run_start',
      runId: 'r',
      task: { kind: 'issue' },
      model: 'm',
      root,
      test: { command: 'npm test', source: 'detected', why: 'package.json' },
    });
    const ledger: RunEvent[] = [start, ...run.events];
    const ev = buildEvidence(ledger, { repo: { baseSha: 'b', branch: 'x' }, filesChanged: [] });
    expect(ev.checksPassed).toEqual(['npm run lint']);
    expect(ev.notRun?.map((n) => n.check)).toEqual([
      'npm run typecheck',
      'npm run test:e2e',
      'make lint',
      'make check',
      'cargo clippy --all',
    ]);
    expect(ev.notRun?.[2]).toEqual({
      check: 'make lint',
      why: 'its last run failed, and it was not run again after that',
      state: 'failed',
    });
    expect(ev.notRun?.[0]?.why).toBe(
      'a typecheck check from package.json: the agent did not run it and the harness runs only the test command (`npm test`); CI runs it on the pushed commit',
    );
    expect(ev.notRun?.[1]?.why).toMatch(/^an end-to-end suite/);
    const md = renderSummaryMd(ev);
    expect(md).toContain('### Not run here, and why');
    expect(md).toContain('Ran and passed: `npm run lint`.');
    expect(md).toContain('- `npm run typecheck`: a typecheck check from package.json');
    expect(md).toContain('- `make lint`: failed: its last run failed');
    expect(md).not.toContain('Every other check of the repository ran.');
    expect(buildEvidence([start], { repo: { baseSha: 'b', branch: 'x' }, filesChanged: [] }).notRun).toBeUndefined();
  });

  it('PR body - the last run of each check after the last edit decides: failed last is failed, passed before an edit is not run on the final tree', () => {
    let n = 0;
    const ev = (e: Parameters<typeof stamp>[0]): RunEvent => stamp(e, new Date(Date.UTC(2026, 0, 1, 0, 0, n++)));
    const bash = (id: string, command: string, isError: boolean): RunEvent[] => [
      ev({ type: 'tool_call', id, name: 'Bash', kind: 'execute', input: { command } }),
      ev({ type: 'tool_result', id, name: 'Bash', kind: 'execute', isError, preview: '', durationMs: 1 }),
    ];
    const checks = [
      { kind: 'lint', command: 'npm run lint', source: 'package.json' },
      { kind: 'typecheck', command: 'npm run typecheck', source: 'package.json' },
      { kind: 'build', command: 'npm run build', source: 'package.json' },
    ];
    const ledger: RunEvent[] = [
      ev({
        type: 'run_start',
        runId: 'r',
        task: { kind: 'issue' },
        model: 'm',
        root: '/r',
        test: { command: 'npm test', source: 'detected', why: 'w' },
      }),
      ev({ type: 'repo_checks', checks }),
      ...bash('a', 'npm run typecheck', false), // passed, then an edit: not on the final tree
      ...bash('b', 'npm run lint', true),
      ev({ type: 'file_changed', path: 'src/a.ts' }),
      ...bash('c', 'npm run lint', false),
      ...bash('d', 'npm run build', false),
      ...bash('e', 'npm run build', true), // the same command again, failed last
    ];
    const e = buildEvidence(ledger, { repo: { baseSha: 'b', branch: 'x' }, filesChanged: [] });
    expect(e.checksPassed).toEqual(['npm run lint']);
    expect(e.notRun).toEqual([
      { check: 'npm run typecheck', why: 'it passed before a later edit, so it did not run on the final tree', state: 'stale' },
      { check: 'npm run build', why: 'its last run failed, and it was not run again after that', state: 'failed' },
    ]);
    const md = renderSummaryMd(e);
    expect(md).toContain('- `npm run typecheck`: not run on the final tree: it passed before a later edit');
    expect(md).toContain('- `npm run build`: failed: its last run failed');
    expect(md).toContain('Ran and passed: `npm run lint`.');
    expect(md).not.toContain('Every other check of the repository ran.');
  });
});
