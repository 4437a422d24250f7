/**
 * `.claude/rules/**\/*.md` as Claude Code reads them (seed 002 §13): a rule file without `paths:` in its
 * front matter is loaded at the start, with the instruction files; one with `paths:` (a glob or a list of
 * globs, relative to the repository) joins the conversation after the first Read of a matching file.
 * Read like the instruction files: HTML comments stripped, `@path` imports expanded inside the
 * repository; bounded in number and size (a cut file says so).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { globToRegex } from '../../tools/lib/glob-to-regex.js';
import { readInstructionText } from './instructions.js';
import { splitFrontMatter } from './skills.js';
import type { InstructionFile } from './types.js';

export const RULES_DIR = '.claude/rules';
/** Rule files read at most (sorted by path). */
export const MAX_RULE_FILES = 50;
/** Bytes of one rule file in the prompt or the conversation. */
export const RULE_MAX_BYTES = 8_000;

export interface RuleFile extends InstructionFile {
  /** The globs of `paths:`; undefined = always loaded. */
  paths?: string[];
  /** Whether a worktree-relative path is one of the rule's paths. */
  matches(path: string): boolean;
}

/** The `.md` files under `.claude/rules`, relative to the root, sorted; at most MAX_RULE_FILES. */
async function ruleFilePaths(root: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(join(root, ...RULES_DIR.split('/')), { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  const dir = join(root, ...RULES_DIR.split('/'));
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map(
      (e) =>
        `${RULES_DIR}/${join(e.parentPath, e.name)
          .slice(dir.length + 1)
          .split('\\')
          .join('/')}`,
    )
    .sort()
    .slice(0, MAX_RULE_FILES);
}

/** `paths:` as a list of globs: a string, a comma-separated string or a list of strings; undefined when absent. */
function pathsOf(meta: unknown): string[] | undefined {
  const raw = meta && typeof meta === 'object' ? (meta as Record<string, unknown>).paths : undefined;
  const list = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string') : [];
  const globs = list.map((g) => g.trim()).filter((g) => g !== '');
  return globs.length > 0 ? globs : undefined;
}

function ruleFile(path: string, meta: unknown, body: string): RuleFile | undefined {
  if (body.trim() === '') return undefined;
  const paths = pathsOf(meta);
  const res = paths?.map((g) => globToRegex(g, { matchBase: true }));
  const bytes = Buffer.byteLength(body, 'utf8');
  const content = bytes <= RULE_MAX_BYTES ? body : Buffer.from(body, 'utf8').subarray(0, RULE_MAX_BYTES).toString('utf8');
  return {
    path,
    content,
    bytes,
    truncated: bytes > RULE_MAX_BYTES,
    ...(paths ? { paths } : {}),
    matches: (p) => (res ? res.some((re) => re.test(p.replace(/^\.\//, ''))) : false),
  };
}

/** Every rule file of the repository, in path order. */
export async function loadRuleFiles(root: string): Promise<RuleFile[]> {
  const out: RuleFile[] = [];
  for (const path of await ruleFilePaths(root)) {
    const text = await readInstructionText(root, path);
    if (text === undefined) continue;
    const split = splitFrontMatter(text);
    const rule = ruleFile(path, split?.meta, split ? split.body : text);
    if (rule) out.push(rule);
  }
  return out;
}

/**
 * The instruction chain followed by the rule files without `paths:`, inside the same total cap: a rule
 * that does not fit whole is cut to the room left (or left empty), and marked cut.
 */
export function withStartupRules(chain: InstructionFile[], rules: readonly RuleFile[], maxBytes: number): InstructionFile[] {
  let used = chain.reduce((n, f) => n + Buffer.byteLength(f.content, 'utf8'), 0);
  const out = [...chain];
  for (const r of rules) {
    if (r.paths) continue;
    const room = Math.max(0, maxBytes - used);
    const size = Buffer.byteLength(r.content, 'utf8');
    const content =
      size <= room
        ? r.content
        : Buffer.from(r.content, 'utf8')
            .subarray(0, room)
            .toString('utf8')
            .replace(/\uFFFD$/, '');
    used += Buffer.byteLength(content, 'utf8');
    out.push({ path: r.path, content, bytes: r.bytes, truncated: r.truncated || size > room });
  }
  return out;
}
