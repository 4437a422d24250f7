/*
 * git commands that change only worktree files and the agent's own git (its private index and stash):
 * `git restore`, `git checkout [<tree-ish>] -- <path>…` (the path form, never a branch switch) and
 * `git stash` (push, pop, apply, drop; list and show are on the safe list). Each file they write is a
 * write the Write tool would have to be allowed to make (the path jail, protected and secret paths,
 * dependency folders, deny rules), and readable too (its content comes from the index or a commit: a
 * masked file may not be restored into view). Interactive forms (`-p`), pathspec files and submodule recursion are left to rules.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { decideFileTool, type FilePolicy } from './file-decision.js';
import { parseOptions, type OptionTable } from './parse-options.js';

const long = (spec: string): Record<string, 'none' | 'req'> =>
  Object.fromEntries(spec.split(/\s+/).map((w) => (w.endsWith('=') ? [w.slice(0, -1), 'req'] : [w, 'none'])));

const RESTORE: OptionTable = {
  flags: 'SWqm',
  req: 's',
  long: long(
    'source= staged worktree quiet progress no-progress ours theirs merge conflict= ignore-unmerged ignore-skip-worktree-bits overlay no-overlay',
  ),
};
const CHECKOUT: OptionTable = {
  flags: 'qfm',
  long: long('quiet force ours theirs merge conflict= overlay no-overlay ignore-skip-worktree-bits progress no-progress'),
};
const STASH_PUSH: OptionTable = {
  flags: 'kuqS',
  req: 'm',
  long: long('keep-index no-keep-index include-untracked no-include-untracked quiet message= staged'),
};
const STASH_REF: OptionTable = { flags: 'q', long: long('index quiet') };

/** The outcome: an allow label, a refusal that says why, or null (not one of these forms: the usual rules decide). */
export type GitWorktreeDecision = { label: string } | { refused: string } | null;

/** Pathspecs the policy can judge: literal paths, no pathspec magic, no glob. */
const literal = (p: string): boolean => p !== '' && !p.startsWith(':') && !/[*?[\]\\]/.test(p);

/** Every path written (and read, when it comes from another commit) must be one the file tools may touch. */
function pathsRefusal(p: FilePolicy, paths: readonly string[], shown: string): string | null {
  for (const path of paths) {
    if (!literal(path)) return `\`${shown}\`: name the paths literally (no pathspec magic or glob) so each can be checked`;
    const type = lstatSync(join(p.root, path), { throwIfNoEntry: false })?.isDirectory() ? ('dir' as const) : ('file' as const);
    const access = { paths: [{ path, type }], patterns: [] };
    const write = decideFileTool(p, { tool: 'Write', kind: 'edit', access });
    if (write.behavior === 'deny') return `\`${shown}\` writes ${path}: ${write.reason}`;
    const read = decideFileTool(p, { tool: 'Read', kind: 'read', access });
    if (read.behavior === 'deny') return `\`${shown}\` writes ${path} from git's copy: ${read.reason}`;
  }
  return null;
}

/** `git restore` / `git checkout … -- paths` / `git stash …`, run from the worktree root (see the header). */
export function gitWorktreeChange(p: FilePolicy, words: readonly (string | null)[], cwds: readonly string[]): GitWorktreeDecision {
  if (words[0] !== 'git' || cwds.length !== 1 || cwds[0] !== p.root || words.some((w) => w === null)) return null;
  const [, sub, ...args] = words as string[];
  const shown = (words as string[]).join(' ');
  if (sub === 'restore') return restore(p, args, shown);
  if (sub === 'checkout') return checkoutPaths(p, args, shown);
  if (sub === 'stash') return stash(p, args, shown);
  return null;
}

function restore(p: FilePolicy, args: readonly string[], shown: string): GitWorktreeDecision {
  const o = parseOptions(RESTORE, args);
  if (!o.ok) return { refused: `\`${shown}\`: ${o.bad} is not an option git restore may use here without a rule` };
  if (o.operands.length === 0) return { refused: `\`${shown}\`: name the paths to restore` };
  const why = pathsRefusal(p, o.operands, shown);
  return why ? { refused: why } : { label: 'builtin-allow:git restore' };
}

/** Only the path form: `--` names the paths, or every operand is a path that exists (git would not switch branches). */
function checkoutPaths(p: FilePolicy, args: readonly string[], shown: string): GitWorktreeDecision {
  const dash = args.indexOf('--');
  const before = dash === -1 ? args : args.slice(0, dash);
  const o = parseOptions(CHECKOUT, before);
  if (!o.ok) return null;
  let paths: string[];
  if (dash !== -1) {
    if (o.operands.length > 1) return null;
    paths = args.slice(dash + 1);
  } else {
    paths = o.operands;
    if (paths.length === 0 || !paths.every((x) => lstatSync(join(p.root, x), { throwIfNoEntry: false }) !== undefined)) return null;
  }
  if (paths.length === 0) return { refused: `\`${shown}\`: name the paths to check out after --` };
  const why = pathsRefusal(p, paths, shown);
  return why ? { refused: why } : { label: 'builtin-allow:git checkout -- <path>' };
}

function stash(p: FilePolicy, args: readonly string[], shown: string): GitWorktreeDecision {
  const first = args[0];
  const verb = first === undefined || first.startsWith('-') ? 'push' : first;
  const rest = first === undefined || first.startsWith('-') ? args : args.slice(1);
  if (verb === 'push') {
    const o = parseOptions(STASH_PUSH, rest);
    if (!o.ok) return { refused: `\`${shown}\`: ${o.bad} is not an option git stash push may use here without a rule` };
    const why = o.operands.length ? pathsRefusal(p, o.operands, shown) : null;
    return why ? { refused: why } : { label: 'builtin-allow:git stash push' };
  }
  if (verb === 'pop' || verb === 'apply' || verb === 'drop') {
    const o = parseOptions(STASH_REF, rest);
    if (!o.ok || o.operands.length > 1 || (verb === 'drop' && o.options.some((x) => x.name === '--index')))
      return {
        refused: `\`${shown}\`: git stash ${verb} takes at most one stash (stash@{n}) and -q${verb === 'drop' ? '' : ' or --index'}`,
      };
    return { label: `builtin-allow:git stash ${verb}` };
  }
  return null;
}
