/**
 * Checks that a history is valid for the Messages API: starts with a user turn, roles alternate, every
 * tool_result answers a tool_use of the assistant turn just before it, and every tool_use of an assistant
 * turn that is followed by a user turn is answered there. Returns the first problem, or undefined.
 */
import type { Message } from '../../model/model-client.js';

export function validateHistory(messages: Message[]): string | undefined {
  if (messages.length === 0) return 'history is empty';
  if (messages[0]?.role !== 'user') return 'history must start with a user message';
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const prev = messages[i - 1];
    if (!m) continue;
    if (prev && prev.role === m.role) return `messages ${i - 1} and ${i} are both ${m.role}`;
    if (m.role !== 'user') continue;
    const asked = new Set(prev && prev.role === 'assistant' ? prev.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])) : []);
    const answered = new Set<string>();
    for (const b of typeof m.content === 'string' ? [] : m.content) {
      if (b.type !== 'tool_result') continue;
      if (!asked.has(b.tool_use_id)) return `message ${i}: tool_result ${b.tool_use_id} answers no tool_use in message ${i - 1}`;
      answered.add(b.tool_use_id);
    }
    for (const id of asked) if (!answered.has(id)) return `message ${i}: tool_use ${id} from message ${i - 1} has no tool_result`;
  }
  return undefined;
}
