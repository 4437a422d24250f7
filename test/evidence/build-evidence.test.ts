import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent } from '../../src/agent/events.js';
import { buildEvidence, writeEvidence, type EvidenceFacts } from '../../src/agent/evidence/evidence.js';
import { agentRun, harnessRun, sampleEvents, TREE_A, TREE_B } from './events-fixture.js';
import { tempDir } from '../kit/temp.js';

const facts: EvidenceFacts = {
  repo: { fullName: 'o/r', baseSha: 'base', branch: 'proofpr/4-fix-it' },
  filesChanged: [{ path: 'a.js', added: 1, removed: 1 }],
};

describe('buildEvidence', () => {
  const ev = buildEvidence(sampleEvents(), facts);

  it('evidence - takes run id, task, model, sandbox, times and verdict from run_start and run_end', () => {
    expect(ev.version).toBe(1);
    expect(ev.runId).toBe('r-1');
    expect(ev.task).toEqual({ kind: 'issue', issue: 4, title: 'Fix it' });
    expect(ev.model).toBe('m-1');
    expect(ev.sandbox).toBe('bwrap');
    expect(ev.startedAt).toBe('2025-01-01T00:00:00.000Z');
    expect(ev.endedAt).toBe('2025-01-01T00:00:50.000Z');
    expect(ev.verdict).toBe('verified');
    expect(ev.reason).toBe('All gates passed.');
    expect(ev.repo).toEqual(facts.repo);
    expect(ev.filesChanged).toEqual(facts.filesChanged);
  });

  it('evidence - gates are the final evaluation, hooks between gates included', () => {
    expect(ev.gates).toEqual([
      { name: 'tests-ran', passed: true, detail: '5 executed (final)' },
      { name: 'tests-fresh', passed: true, detail: 'fresh (final)' },
    ]);
  });

  it('evidence - without final gates the last evaluation counts, a repeated gate keeps its last result', () => {
    const events = sampleEvents().filter((e) => !(e.type === 'gate' && e.final));
    events.push({
      type: 'assistant',
      ts: '2025-01-01T00:01:00.000Z',
      turn: 4,
      content: [],
      stopReason: 'end_turn',
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: 0,
    });
    events.push({ type: 'gate', ts: '2025-01-01T00:01:01.000Z', name: 'tests-ran', passed: false, detail: 'first', final: false });
    events.push({ type: 'gate', ts: '2025-01-01T00:01:01.000Z', name: 'tests-ran', passed: true, detail: 'second', final: false });
    expect(buildEvidence(events, facts).gates).toEqual([{ name: 'tests-ran', passed: true, detail: 'second' }]);
  });

  it('evidence - testRuns are every test_run in order', () => {
    expect(ev.testRuns).toEqual([agentRun, harnessRun]);
  });

  it('evidence - lastEditAt is the later of the last successful Edit/Write and file_changed', () => {
    expect(ev.lastEditAt).toBe('2025-01-01T00:00:35.000Z');
    const noFileChanged = sampleEvents().filter((e) => e.type !== 'file_changed');
    expect(buildEvidence(noFileChanged, facts).lastEditAt).toBe('2025-01-01T00:00:09.000Z');
  });

  it('evidence - finalTreeHash is the tree of the run the passing final gates accepted', () => {
    expect(ev.finalTreeHash).toBe(TREE_B);
    expect(buildEvidence(sampleEvents(), { ...facts, finalTreeHash: TREE_A }).finalTreeHash).toBe(TREE_A);
  });

  it('evidence - no finalTreeHash when the chosen gates did not all pass', () => {
    const events = sampleEvents().map((e): RunEvent =>
      e.type === 'gate' && e.final && e.name === 'tests-fresh' ? { ...e, passed: false } : e,
    );
    expect(buildEvidence(events, facts).finalTreeHash).toBeUndefined();
  });

  it('evidence - counts tool calls by name', () => {
    expect(ev.toolCalls).toEqual({ Read: 1, Bash: 2, Write: 1, Edit: 2 });
  });

  it('evidence - denied lists permission denials and PreToolUse hook blocks', () => {
    expect(ev.denied).toEqual([
      { tool: 'Bash', input: 'curl http://x', rule: 'Bash(curl:*)', reason: 'no network' },
      { tool: 'Write', input: 'test/a.test.js', rule: 'PreToolUse hook guard', reason: 'tests are read-only' },
    ]);
  });

  it('evidence - usage sums assistant events; compactions count only successful ones', () => {
    expect(ev.usage).toEqual({
      inputTokens: 130,
      outputTokens: 45,
      cacheReadTokens: 350,
      cacheWriteTokens: 50,
      costUsd: 0.015,
      turns: 3,
      compactions: 1,
    });
  });

  it('evidence - hook errors are recorded', () => {
    expect(ev.hookErrors).toEqual(['PostToolUse prettier: exit 127']);
  });

  it('evidence - facts override what the events say', () => {
    const e = buildEvidence(sampleEvents(), {
      ...facts,
      runId: 'other',
      verdict: 'aborted',
      reason: 'budget',
      startedAt: 's',
      endedAt: 'e',
      model: 'm-2',
      sandbox: 'none',
      task: { kind: 'prompt', title: 'p' },
      pr: { number: 9, url: 'u' },
    });
    expect([e.runId, e.verdict, e.reason, e.startedAt, e.endedAt, e.model, e.sandbox]).toEqual([
      'other',
      'aborted',
      'budget',
      's',
      'e',
      'm-2',
      'none',
    ]);
    expect(e.task).toEqual({ kind: 'prompt', title: 'p' });
    expect(e.pr).toEqual({ number: 9, url: 'u' });
  });

  it('evidence - an empty ledger still gives a complete object with verdict error', () => {
    const e = buildEvidence([], facts);
    expect(e.verdict).toBe('error');
    expect(e.reason).toMatch(/without recording a verdict/);
    expect(e.gates).toEqual([]);
    expect(e.usage.turns).toBe(0);
    expect(e.lastEditAt).toBeUndefined();
  });

  it('writeEvidence - writes evidence.json atomically and leaves no temp file', async () => {
    const dir = join(tempDir('proofpr-ev-'), 'run');
    const path = await writeEvidence(dir, ev);
    expect(path).toBe(join(dir, 'evidence.json'));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(ev);
    expect(readdirSync(dir)).toEqual(['evidence.json']);
  });
});
