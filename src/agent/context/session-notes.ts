/**
 * Session notes (seed 003 §3.2): kept by the harness as the run goes, from the conversation itself, before
 * any clearing — every tool call in order with its input in short and its outcome, and the model's own
 * words between calls (what it found and decided). At a compaction they can stand in for an LLM summary:
 * no request, no wording to trust, nothing the model could leave out. The facts that decide the verdict
 * (failing checks, edits since the last passing run, the plan) come from the harness state next to them.
 */
import type { Message } from '../../model/model-client.js';
import { escapeTags } from './escape-tags.js';

export const SESSION_NOTES_TAG = '<session-notes>';
/** Tool calls noted before the notes are taken as enough to replace a summary. */
export const SESSION_NOTES_MIN_CALLS = 4;
/** Latest tool calls listed one per line (earlier ones are counted). */
export const SESSION_NOTES_MAX_CALLS = 60;
/** Latest notes of the model's own kept, each cut to NOTE_CHARS. */
export const SESSION_NOTES_MAX_NOTES = 8;
const NOTE_CHARS = 400;
const ARG_CHARS = 120;
const ERROR_CHARS = 160;

interface CallNote {
  id: string;
  name: string;
  arg: string;
  outcome?: string;
}

export interface SessionNotes {
  /** Notes the tool calls, results and assistant text of `messages` not seen yet (call before any clearing). */
  observe(messages: Message[]): void;
  /** Tool calls noted so far. */
  readonly calls: number;
  /** Enough to stand in for a summary: at least SESSION_NOTES_MIN_CALLS tool calls noted. */
  substantive(): boolean;
  /** The notes block for a hand-off. */
  render(): string;
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();
const cut = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** A tool input in short: its string and number fields' values, in order (the path, the command, the pattern). */
export function shortArg(input: unknown): string {
  if (input === null || typeof input !== 'object') return '';
  const values = Object.values(input as Record<string, unknown>).flatMap((v) =>
    typeof v === 'string' || typeof v === 'number' ? [String(v)] : [],
  );
  return cut(squash(values.join(' ')), ARG_CHARS);
}

function outcomeOf(content: string, isError: boolean | undefined): string {
  if (!isError) return 'ok';
  const first = content.split('\n').find((l) => l.trim() !== '') ?? '';
  return `error: ${cut(squash(first), ERROR_CHARS)}`;
}

export function createSessionNotes(): SessionNotes {
  const calls: CallNote[] = [];
  const byId = new Map<string, CallNote>();
  const notes: string[] = [];
  const seenNotes = new Set<string>();
  const noteText = (text: string): void => {
    const t = squash(text);
    if (t === '' || seenNotes.has(t)) return;
    seenNotes.add(t);
    notes.push(cut(t, NOTE_CHARS));
    if (notes.length > SESSION_NOTES_MAX_NOTES) notes.shift();
  };
  return {
    observe(messages) {
      for (const m of messages) {
        if (typeof m.content === 'string') continue;
        for (const b of m.content) {
          if (b.type === 'text' && m.role === 'assistant') noteText(b.text);
          if (b.type === 'tool_use' && !byId.has(b.id)) {
            const call = { id: b.id, name: b.name, arg: shortArg(b.input) };
            byId.set(b.id, call);
            calls.push(call);
          }
          const call = b.type === 'tool_result' ? byId.get(b.tool_use_id) : undefined;
          if (call && b.type === 'tool_result' && call.outcome === undefined) call.outcome = outcomeOf(b.content, b.is_error);
        }
      }
    },
    get calls() {
      return calls.length;
    },
    substantive: () => calls.length >= SESSION_NOTES_MIN_CALLS,
    render: () => renderNotes(calls, notes),
  };
}

function renderNotes(calls: CallNote[], notes: string[]): string {
  const shown = calls.slice(-SESSION_NOTES_MAX_CALLS);
  const first = calls.length - shown.length;
  const lines = [
    SESSION_NOTES_TAG,
    'Kept by the harness as the run went, in place of a summary of the earlier turns (which were dropped). Your own words below are what you wrote then: check them against the files and the harness state before relying on them.',
    `Tool calls (${calls.length} in all${first > 0 ? `; the first ${first} not listed` : ''}):`,
    ...shown.map((c, i) => `${first + i + 1}. ${c.name}${c.arg ? ` ${escapeTags(c.arg)}` : ''} → ${escapeTags(c.outcome ?? 'no result')}`),
  ];
  if (notes.length > 0) {
    lines.push(`Your notes between calls (the latest ${notes.length}):`);
    for (const n of notes) lines.push(`- ${escapeTags(n)}`);
  }
  lines.push('</session-notes>');
  return lines.join('\n');
}
