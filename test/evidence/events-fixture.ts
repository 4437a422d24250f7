/** A hand-written ledger for the evidence tests: every event kind the derivations look at. */
import type { RunEvent, TestRun } from '../../src/agent/events.js';

const u = (i: number, o: number, cr = 0, cw = 0) => ({ inputTokens: i, outputTokens: o, cacheReadTokens: cr, cacheWriteTokens: cw });
export const TREE_A = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
export const TREE_B = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';

export const agentRun: TestRun = {
  command: 'npm test', exitCode: 0, startedAt: '2025-01-01T00:00:20.000Z', endedAt: '2025-01-01T00:00:25.000Z',
  treeHash: TREE_A, counts: { passed: 5, failed: 0, skipped: 1, total: 6 }, source: 'summary-line', runner: 'jest', by: 'agent',
};
export const harnessRun: TestRun = { ...agentRun, startedAt: '2025-01-01T00:00:40.000Z', endedAt: '2025-01-01T00:00:44.000Z', treeHash: TREE_B, by: 'harness' };

export function sampleEvents(): RunEvent[] {
  return [
    { type: 'run_start', ts: '2025-01-01T00:00:00.000Z', runId: 'r-1', task: { kind: 'issue', issue: 4, title: 'Fix it' }, model: 'm-1', root: '/wt', sandbox: 'bwrap' },
    { type: 'request', ts: '2025-01-01T00:00:01.000Z', turn: 1, messages: 1, estimatedTokens: 900 },
    { type: 'assistant', ts: '2025-01-01T00:00:02.000Z', turn: 1, content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'a.js' } }], stopReason: 'tool_use', usage: u(100, 10, 0, 50), costUsd: 0.01 },
    { type: 'tool_call', ts: '2025-01-01T00:00:03.000Z', id: 't1', name: 'Read', input: { file_path: 'a.js' } },
    { type: 'tool_result', ts: '2025-01-01T00:00:04.000Z', id: 't1', name: 'Read', isError: false, preview: '1\tx', durationMs: 5 },
    { type: 'assistant', ts: '2025-01-01T00:00:05.000Z', turn: 2, content: [], stopReason: 'tool_use', usage: u(20, 30, 150, 0), costUsd: 0.002 },
    { type: 'tool_call', ts: '2025-01-01T00:00:06.000Z', id: 't2', name: 'Bash', input: { command: 'curl http://x' } },
    { type: 'permission', ts: '2025-01-01T00:00:06.100Z', tool: 'Bash', input: 'curl http://x', behavior: 'deny', rule: 'Bash(curl:*)', reason: 'no network' },
    { type: 'tool_result', ts: '2025-01-01T00:00:06.200Z', id: 't2', name: 'Bash', isError: true, errorKind: 'permission_denied', preview: 'denied', durationMs: 1 },
    { type: 'tool_call', ts: '2025-01-01T00:00:07.000Z', id: 't3', name: 'Write', input: { file_path: 'test/a.test.js', content: 'x' } },
    { type: 'hook', ts: '2025-01-01T00:00:07.100Z', event: 'PreToolUse', name: 'guard', outcome: 'block', message: 'tests are read-only' },
    { type: 'tool_result', ts: '2025-01-01T00:00:07.200Z', id: 't3', name: 'Write', kind: 'edit', isError: true, errorKind: 'hook_blocked', preview: 'blocked', durationMs: 100 },
    { type: 'tool_call', ts: '2025-01-01T00:00:08.000Z', id: 't4', name: 'Edit', input: { file_path: 'a.js', old_string: 'x', new_string: 'y' } },
    { type: 'tool_result', ts: '2025-01-01T00:00:09.000Z', id: 't4', name: 'Edit', kind: 'edit', isError: false, preview: 'updated', durationMs: 3 },
    { type: 'tool_call', ts: '2025-01-01T00:00:10.000Z', id: 't5', name: 'Edit', input: { file_path: 'a.js', old_string: 'q', new_string: 'y' } },
    { type: 'tool_result', ts: '2025-01-01T00:00:11.000Z', id: 't5', name: 'Edit', kind: 'edit', isError: true, errorKind: 'no_match', preview: 'no match', durationMs: 2 },
    { type: 'compaction', ts: '2025-01-01T00:00:12.000Z', kind: 'microcompact', beforeTokens: 100, afterTokens: 50, ok: true },
    { type: 'compaction', ts: '2025-01-01T00:00:13.000Z', kind: 'summary', beforeTokens: 100, afterTokens: 100, ok: false },
    { type: 'hook', ts: '2025-01-01T00:00:14.000Z', event: 'PostToolUse', name: 'prettier', outcome: 'error', message: 'exit 127' },
    { type: 'tool_call', ts: '2025-01-01T00:00:19.000Z', id: 't6', name: 'Bash', input: { command: 'npm test' } },
    { type: 'tool_result', ts: '2025-01-01T00:00:25.500Z', id: 't6', name: 'Bash', isError: false, preview: 'ok', durationMs: 6000 },
    { type: 'test_run', ts: '2025-01-01T00:00:25.600Z', run: agentRun },
    { type: 'assistant', ts: '2025-01-01T00:00:30.000Z', turn: 3, content: [{ type: 'text', text: 'done' }], stopReason: 'end_turn', usage: u(10, 5, 200, 0), costUsd: 0.003 },
    { type: 'gate', ts: '2025-01-01T00:00:31.000Z', name: 'tests-ran', passed: true, detail: '5 executed', final: false },
    { type: 'gate', ts: '2025-01-01T00:00:31.000Z', name: 'tests-fresh', passed: false, detail: 'stale', final: false },
    { type: 'file_changed', ts: '2025-01-01T00:00:35.000Z', path: 'b.js' },
    { type: 'test_run', ts: '2025-01-01T00:00:44.500Z', run: harnessRun },
    { type: 'gate', ts: '2025-01-01T00:00:45.000Z', name: 'tests-ran', passed: true, detail: '5 executed (final)', final: true },
    { type: 'hook', ts: '2025-01-01T00:00:45.100Z', event: 'Stop', name: 'lint', outcome: 'continue' },
    { type: 'gate', ts: '2025-01-01T00:00:45.200Z', name: 'tests-fresh', passed: true, detail: 'fresh (final)', final: true },
    { type: 'run_end', ts: '2025-01-01T00:00:50.000Z', verdict: 'verified', reason: 'All gates passed.' },
  ];
}
