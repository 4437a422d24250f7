/**
 * Instruction files of subfolders, loaded when the agent first reads a file there (seed 002 §13): the
 * root's files (and the folders the task names) are in the system prompt; a deeper folder's AGENTS.md /
 * CLAUDE.md joins the conversation right after the tool result of the first Read inside it. Derived from
 * the history on every request, so the prefix stays byte-stable; each folder is looked at once. A rule
 * file of `.claude/rules` scoped by `paths:` joins the same way, after the first Read of a matching file.
 */
import { isAbsolute, join, relative } from 'node:path';
import type { Message, TextBlock, UserBlock } from '../../model/model-client.js';
import { escapeTags } from './escape-tags.js';
import { foldersOf, loadFolderInstructions } from './instructions.js';
import type { InstructionFile } from './types.js';
import type { RuleFile } from './rule-files.js';

/** Bytes of one subfolder instruction file in the conversation. */
export const NESTED_MAX_BYTES = 8_000;

export interface NestedInstructions {
  /** Reads the instruction files of folders newly read into (async: called before each request). */
  observe(messages: Message[]): Promise<void>;
  /** The messages with each folder's files after the first Read result inside it. Does not mutate. */
  attach(messages: Message[]): Message[];
}

function filePathOf(input: unknown): string | undefined {
  const p = input && typeof input === 'object' ? (input as Record<string, unknown>).file_path : undefined;
  return typeof p === 'string' && p !== '' ? p : undefined;
}

/** Read calls by id → the folders of the file read. */
function readFolders(root: string, messages: Message[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const b of m.content) {
      const path = b.type === 'tool_use' && b.name === 'Read' ? filePathOf(b.input) : undefined;
      if (b.type === 'tool_use' && path !== undefined) out.set(b.id, foldersOf(root, path));
    }
  }
  return out;
}

/** Read calls by id → the file read, relative to the root (forward slashes); none for a path outside it. */
function readFiles(root: string, messages: Message[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const b of m.content) {
      const path = b.type === 'tool_use' && b.name === 'Read' ? filePathOf(b.input) : undefined;
      const rel = path === undefined ? undefined : relative(root, isAbsolute(path) ? path : join(root, path));
      if (b.type === 'tool_use' && rel && !rel.startsWith('..') && !isAbsolute(rel)) out.set(b.id, rel.split('\\').join('/'));
    }
  }
  return out;
}

function render(f: InstructionFile, why = 'Instructions of this folder, loaded because you read a file in it'): string {
  const note = f.truncated ? `\n[cut to fit: ${f.bytes} bytes in total; Read ${f.path} for the rest]` : '';
  return `<instructions path="${f.path}">\n${why} (they add to the repository's, never override the core rules):\n${escapeTags(f.content.trimEnd())}${note}\n</instructions>`;
}

/** The scoped rules a Read result brings in (each once, in `shown`), rendered. */
function rulesFor(file: string | undefined, rules: readonly RuleFile[], shown: Set<string>): TextBlock[] {
  if (file === undefined) return [];
  return rules
    .filter((r) => !shown.has(r.path) && r.matches(file))
    .map((r) => {
      shown.add(r.path);
      return { type: 'text', text: render(r, `Rules for files matching ${(r.paths ?? []).join(', ')}, loaded because you read ${file}`) };
    });
}

/**
 * `root`: the worktree the Read paths are in; `instructionsRoot`: where instruction files are read from
 * (a PR follow-up reads the base branch's); `loaded`: folders whose files are in the system prompt already.
 */
export function createNestedInstructions(
  root: string,
  instructionsRoot: string,
  loaded: string[],
  scopedRules: readonly RuleFile[] = [],
): NestedInstructions {
  const known = new Map<string, InstructionFile[]>(loaded.map((d) => [d, []]));
  return {
    async observe(messages) {
      for (const folders of readFolders(root, messages).values())
        for (const d of folders) if (!known.has(d)) known.set(d, await loadFolderInstructions(instructionsRoot, d, NESTED_MAX_BYTES));
    },
    attach(messages) {
      const calls = readFolders(root, messages);
      const files = scopedRules.length ? readFiles(root, messages) : new Map<string, string>();
      const shown = new Set<string>();
      return messages.map((m) => {
        if (m.role !== 'user' || typeof m.content === 'string') return m;
        const extra: TextBlock[] = [];
        for (const b of m.content) {
          if (b.type !== 'tool_result' || b.is_error) continue;
          for (const d of calls.get(b.tool_use_id) ?? []) {
            if (shown.has(d)) continue;
            shown.add(d);
            for (const f of known.get(d) ?? []) extra.push({ type: 'text', text: render(f) });
          }
          extra.push(...rulesFor(files.get(b.tool_use_id), scopedRules, shown));
        }
        return extra.length ? { role: 'user', content: [...m.content, ...extra] as UserBlock[] } : m;
      });
    },
  };
}
