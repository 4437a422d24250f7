import { parseFind } from './find-grammar.js';
import { OPERANDS_ONLY, OPTION_TABLES } from './option-tables.js';
import { hasOption, parseOptions } from './parse-options.js';

/** Read-only commands whose operands are files or folders they read: the path jail checks each (command-checks.ts). */
export const FILE_READERS: readonly string[] = [
  ...['ls', 'cat', 'head', 'tail', 'wc', 'file', 'stat', 'sort', 'uniq', 'cut', 'diff', 'grep', 'egrep', 'fgrep', 'rg', 'find'],
  ...['sed', 'nl', 'tac', 'cmp', 'comm', 'du', 'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'realpath', 'readlink'],
  ...['column', 'awk', 'jq', 'cd'],
];

/** Read-only inspection allowed without a rule (still subject to the path jail and argument checks). */
const SAFE_COMMANDS: ReadonlySet<string> = new Set([
  ...FILE_READERS,
  ...['pwd', 'echo', 'printf', 'true', 'false', 'tr', 'which', 'type', 'basename', 'dirname', 'test', '[', 'env', 'printenv'],
  ...['uname', 'date', 'mkdir'],
]);

/** Programs whose bare `--version` (or `-v`) only prints a version. */
const VERSION_ONLY: ReadonlySet<string> = new Set(['node', 'npm', 'npx', 'python3', 'pnpm', 'yarn', 'tsc']);

/** awk programs that run commands, open pipes or files, read input by hand or read the environment. */
const AWK_RISKY = /system|\||getline|>|ENVIRON|PROCINFO|@load|@include/;
/** jq programs that read the environment or load modules. */
const JQ_RISKY = /\benv\b|\$ENV|\bimport\b|\binclude\b|\binput_filename\b|\$__loc__|\$__prog/;

/** The strictly read-only git subcommands (plan mode runs only these and the commands above). */
const SAFE_GIT: ReadonlySet<string> = new Set([
  'status',
  'diff',
  'log',
  'show',
  'blame',
  'ls-files',
  'rev-parse',
  'branch',
  'ls-tree',
  'cat-file',
  'describe',
  'shortlog',
  'merge-base',
  'rev-list',
  'grep',
  'diff-tree',
  'diff-files',
  'diff-index',
  'whatchanged',
  'name-rev',
  'check-ignore',
  'stash',
]);

/** git branch options that only list. */
const BRANCH_LIST =
  /^(-a|-r|-v|-vv|-l|--list|--all|--remotes|--verbose|--show-current|--contains|--no-contains|--merged|--no-merged|--sort=.*|--format=.*|--color(=.*)?|--no-color|--column|--no-column|--points-at=.*)$/;

/** Why a safe command's options fail its table (the offending word), or null when they pass or it has no table. */
export function optionRefusal(words: readonly string[]): string | null {
  const [name, ...rest] = words;
  if (name === undefined || OPERANDS_ONLY.has(name)) return null;
  if (name === 'find') {
    const f = parseFind(rest);
    return typeof f === 'string' ? f : null;
  }
  let args = rest;
  if (name === 'git') {
    let i = 0;
    while (i < rest.length && (rest[i] as string).startsWith('-')) i++;
    args = rest.slice(i + 1);
    if (rest[i] === 'stash') {
      // Only `git stash list` and `git stash show` read; every other stash subcommand changes the worktree.
      if (args[0] !== 'list' && args[0] !== 'show') return `stash ${args[0] ?? ''}`.trim();
      args = args.slice(1);
    }
  }
  const table = OPTION_TABLES[name];
  if (!table) return null;
  const p = parseOptions(table, args);
  if (!p.ok) return p.bad;
  const risky = p.options.find((o) => table.danger?.includes(o.name));
  return risky ? (risky.raw[0] ?? risky.name) : null;
}

/**
 * The safe-list label for a command (its static words, name first), or null. Every option must be in the
 * command's table (option-tables.ts); besides, `sed` only without -i, `printf` without -v, `git branch`
 * only listing, `git stash` only list/show, `uniq` without an output file, `test -v` without a subscript.
 */
export function safeListLabel(words: readonly string[]): string | null {
  const [name, ...args] = words;
  if (name === undefined) return null;
  if (VERSION_ONLY.has(name)) return args.length === 1 && (args[0] === '--version' || args[0] === '-v') ? `${name} --version` : null;
  if (optionRefusal(words) !== null) return null;
  if (name === 'git') {
    let i = 0;
    while (i < args.length && (args[i] as string).startsWith('-')) i++;
    const sub = args[i];
    if (sub === undefined || !SAFE_GIT.has(sub)) return null;
    if (sub === 'branch' && !args.slice(i + 1).every((a) => BRANCH_LIST.test(a))) return null;
    return sub === 'stash' ? `git stash ${args[i + 1] ?? ''}` : `git ${sub}`;
  }
  if (!SAFE_COMMANDS.has(name)) return null;
  if (name === 'sed') {
    const p = parseOptions(OPTION_TABLES.sed as NonNullable<(typeof OPTION_TABLES)['sed']>, args);
    if (!p.ok || hasOption(p, '-i', '--in-place')) return null;
  }
  if (name === 'printf' && args.includes('-v')) return null;
  if (!programLooksSafe(name, args)) return null;
  if ((name === 'test' || name === '[') && args.some((a, k) => a === '-v' && (args[k + 1] ?? '').includes('['))) return null;
  if (name === 'env' && args.length > 0) return null;
  if (name === 'printenv' && args.some((a) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(a) && a !== '-0' && a !== '--null')) return null;
  if (name === 'uniq') {
    const p = parseOptions(OPTION_TABLES.uniq as NonNullable<(typeof OPTION_TABLES)['uniq']>, args);
    if (!p.ok || p.operands.length > 1) return null;
  }
  return name;
}

/** awk and jq: the program (first operand) may not run commands, write, or read the environment; date may not set the clock. */
function programLooksSafe(name: string, args: readonly string[]): boolean {
  const table = OPTION_TABLES[name];
  if (!table || (name !== 'awk' && name !== 'jq' && name !== 'date')) return true;
  const p = parseOptions(table, args);
  if (!p.ok) return false;
  if (name === 'date') return p.operands.every((o) => o.startsWith('+'));
  const program = p.operands[0];
  if (program === undefined) return false;
  return !(name === 'awk' ? AWK_RISKY : JQ_RISKY).test(program);
}
