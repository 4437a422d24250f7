/**
 * The middle tier of compaction (seed 003 §3.2): when the harness's session notes are substantive, the
 * history is rebuilt from them instead of asking the model for a summary — the original task, the notes,
 * the harness's facts section, the files edited last and the loaded skills re-mounted, and the latest
 * exchanges verbatim. No model request: nothing to wait for, nothing to pay, no wording to trust.
 */
import type { Message } from '../../model/model-client.js';
import type { CompactionResult, CompactionState } from './types.js';
import { originalTask, tailStart } from './compaction.js';
import { renderHarnessState } from './harness-state.js';
import { renderLoadedSkills, renderRemount, withRemount } from './remount.js';
import type { SessionNotes } from './session-notes.js';
import { estimateTokens } from './estimate.js';
import { validateHistory } from './validate-history.js';

export interface NotesCompactionInput {
  root: string;
  /** The history to rebuild (old tool results may be cleared already: the notes were taken before). */
  messages: Message[];
  /** The history as it was before any clearing: the skills loaded are read from it. */
  original: Message[];
  state: CompactionState;
  notes: SessionNotes;
  /** Latest exchanges kept verbatim, in estimated tokens. */
  keepRecentTokens: number;
  testCommand?: string;
}

/** The history rebuilt from the session notes; undefined when the notes are not substantive. */
export async function compactWithNotes(input: NotesCompactionInput): Promise<CompactionResult | undefined> {
  const { messages, notes } = input;
  if (!notes.substantive()) return undefined;
  const handOff: Message = {
    role: 'user',
    content: [
      ...originalTask(messages[0]),
      { type: 'text', text: notes.render() },
      { type: 'text', text: renderHarnessState(input.state, input.testCommand ? { testCommand: input.testCommand } : {}) },
    ],
  };
  const tail = messages.slice(tailStart(messages, input.keepRecentTokens));
  const files = withRemount([handOff, ...tail], await renderRemount(input.root, input.state));
  const rebuilt = withRemount(files, renderLoadedSkills(input.original));
  const beforeTokens = estimateTokens(messages);
  if (validateHistory(rebuilt)) return undefined;
  return {
    messages: rebuilt,
    kind: 'notes',
    beforeTokens,
    afterTokens: estimateTokens(rebuilt),
    ok: true,
    detail: `session notes of ${notes.calls} tool calls used instead of a summary (no model request); kept ${tail.length} recent messages`,
  };
}
