/**
 * `/agent memory` (the numbered list) and `/agent forget N` (remove entry N), answered by the one intake
 * after it authorized the commenter: maintainers see and edit what later runs are told.
 */
import type { Trigger } from '../github/trigger.js';
import { memoryLine, renderMemoryIndex } from './memory-index.js';
import { memoryReplies } from './memory-replies.js';
import type { MemoryStore } from './types.js';

export type MemoryCommandReply = { text: string; why: string };

export async function answerMemoryCommand(
  trigger: Pick<Trigger, 'kind' | 'owner' | 'repo' | 'instructions'>,
  prefix: string,
  store: MemoryStore | undefined,
): Promise<MemoryCommandReply> {
  if (!store) return { text: memoryReplies.stateless, why: 'this host keeps no memory' };
  const repo = `${trigger.owner}/${trigger.repo}`;
  const entries = await store.list(repo);
  if (trigger.kind === 'memory')
    return { text: memoryReplies.list(renderMemoryIndex(entries), prefix), why: `memory listed (${entries.length} entries)` };
  const arg = trigger.instructions.trim().split(/\s+/)[0] ?? '';
  const n = /^#?\d+$/.test(arg) ? Number(arg.replace('#', '')) : NaN;
  const gone = Number.isInteger(n) ? await store.remove(repo, n) : undefined;
  if (!gone) return { text: memoryReplies.noSuchEntry(arg, entries.length, prefix), why: `no memory entry ${arg || '(none given)'}` };
  return { text: memoryReplies.forgot(memoryLine(gone, n)), why: `memory entry ${n} forgotten` };
}
