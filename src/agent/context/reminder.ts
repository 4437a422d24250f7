/**
 * Dynamic facts (date, branch, budget, gate status, todos) as a <system-reminder> text block appended to
 * the latest user turn. Never part of the cached prefix: it sits after the rolling breakpoint and is not
 * stored in the history.
 */
import type { Message, TextBlock, UserBlock } from '../../model/model-client.js';
import type { DynamicFacts } from './types.js';
import { lastUserIndexes } from './cache.js';

const MAX_DETAIL = 200;

function clip(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

const TODO_MARK = { completed: '[x]', in_progress: '[~]', pending: '[ ]' } as const;

export function renderReminder(facts: DynamicFacts): string {
  const lines = [
    '<system-reminder>',
    'Harness facts for this turn (from the harness, not from the repository):',
    `- Date: ${facts.date}`,
    `- Branch: ${facts.branch}`,
    `- Turn ${facts.turn} of ${facts.maxTurns}`,
    `- Spent $${facts.costUsd.toFixed(2)} of $${facts.maxCostUsd.toFixed(2)}`,
    `- Time left: ${Math.max(0, Math.floor(facts.minutesLeft))} min`,
  ];
  const gates = facts.gates ?? [];
  if (gates.length === 0) lines.push('- Gates: not evaluated yet (nothing is verified until they pass)');
  else {
    const failed = gates.filter((g) => !g.passed);
    lines.push(failed.length === 0 ? '- Gates: all passed at the last check' : `- Gates FAILING: ${failed.map((g) => g.name).join(', ')}`);
    for (const g of gates)
      lines.push(
        `  - ${g.advisory ? 'advisory (found, not blocking)' : g.passed ? 'passed' : 'FAILED'} ${g.name}${g.detail ? `: ${clip(g.detail, MAX_DETAIL)}` : ''}`,
      );
  }
  const todos = facts.todos ?? [];
  if (todos.length === 0) lines.push('- Todo list: empty');
  else {
    lines.push('- Todo list:');
    for (const t of todos) lines.push(`  ${TODO_MARK[t.status]} ${clip(t.content, MAX_DETAIL)}`);
  }
  lines.push('</system-reminder>');
  return lines.join('\n');
}

/** A copy of `messages` with the reminder appended as an extra text block to the latest user turn. */
export function withReminder(messages: Message[], facts: DynamicFacts): Message[] {
  const { latest } = lastUserIndexes(messages);
  const m = messages[latest];
  if (!m || m.role !== 'user') return messages;
  const block: TextBlock = { type: 'text', text: renderReminder(facts) };
  const blocks: UserBlock[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : [...m.content];
  const out = [...messages];
  out[latest] = { role: 'user', content: [...blocks, block] };
  return out;
}
