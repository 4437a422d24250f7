/**
 * The harness's own record re-attached after a summary: gate status, failing-check logs, files edited
 * and the todo list. It comes from outside the conversation, so a summary can never mark anything verified.
 */
import type { CompactionState } from './types.js';

export const HARNESS_STATE_TAG = '<harness-state>';

const TODO_MARK = { completed: '[x]', in_progress: '[~]', pending: '[ ]' } as const;

export function renderHarnessState(state: CompactionState): string {
  const lines = [HARNESS_STATE_TAG, 'Recorded by the harness outside the conversation. It is authoritative: where the summary disagrees, this wins.'];
  const failed = state.gates.filter((g) => !g.passed);
  if (state.gates.length === 0) lines.push('Gate status: not evaluated yet. Nothing is verified until the gates pass on the final tree.');
  else {
    lines.push(failed.length === 0 ? 'Gate status at the last check: all passed (they are checked again when you stop).' : `Gate status: FAILING ${failed.map((g) => g.name).join(', ')}.`);
    for (const g of state.gates) lines.push(`- ${g.passed ? 'passed' : 'FAILED'} ${g.name}: ${g.detail.replace(/\s+/g, ' ').trim()}`);
  }
  if (state.failingLogs.length > 0) {
    lines.push('Logs of failing checks (Read them before changing more code):');
    for (const p of state.failingLogs) lines.push(`- ${p}`);
  }
  lines.push(state.filesEdited.length > 0 ? `Files edited so far: ${state.filesEdited.join(', ')}` : 'Files edited so far: none');
  if (state.todos.length === 0) lines.push('Todo list: empty');
  else {
    lines.push('Todo list:');
    for (const t of state.todos) lines.push(`${TODO_MARK[t.status]} ${t.content}`);
  }
  lines.push('</harness-state>');
  return lines.join('\n');
}
