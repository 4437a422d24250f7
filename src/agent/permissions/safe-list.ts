/** Read-only inspection allowed without a rule (still subject to the path jail and argument checks). */
const SAFE_COMMANDS: ReadonlySet<string> = new Set([
  'ls', 'cat', 'head', 'tail', 'wc', 'file', 'stat', 'pwd', 'echo', 'printf', 'true', 'false', 'grep', 'egrep', 'fgrep', 'rg',
  'find', 'sort', 'uniq', 'cut', 'tr', 'diff', 'which', 'type', 'basename', 'dirname', 'test', '[', 'nl', 'tac', 'cmp', 'comm',
  'du', 'sed', 'cd', 'env', 'printenv', 'md5sum', 'sha1sum', 'sha256sum', 'realpath', 'readlink', 'column',
]);

const SAFE_GIT: ReadonlySet<string> = new Set([
  'status', 'diff', 'log', 'show', 'blame', 'ls-files', 'rev-parse', 'branch', 'ls-tree', 'cat-file', 'describe', 'shortlog',
  'merge-base', 'rev-list', 'grep', 'diff-tree', 'diff-files', 'diff-index', 'whatchanged', 'name-rev', 'check-ignore',
]);

/** git branch options that only list. */
const BRANCH_LIST = /^(-a|-r|-v|-vv|-l|--list|--all|--remotes|--verbose|--show-current|--contains|--no-contains|--merged|--no-merged|--sort=.*|--format=.*|--color(=.*)?|--no-color|--column|--no-column)$/;

/**
 * The safe-list label for a command (its static words, name first), or null. `sed` only without -i,
 * `printf` without -v, `git branch` only listing, `env`/`printenv` only printing.
 */
export function safeListLabel(words: readonly string[]): string | null {
  const [name, ...args] = words;
  if (name === undefined) return null;
  if (name === 'git') {
    let i = 0;
    while (i < args.length && (args[i] as string).startsWith('-')) i++;
    const sub = args[i];
    if (sub === undefined || !SAFE_GIT.has(sub)) return null;
    if (sub === 'branch' && !args.slice(i + 1).every((a) => BRANCH_LIST.test(a))) return null;
    return `git ${sub}`;
  }
  if (!SAFE_COMMANDS.has(name)) return null;
  if (name === 'sed' && args.some((a) => a === '--in-place' || a.startsWith('--in-place=') || /^-[a-zA-Z]*i/.test(a))) return null;
  if (name === 'printf' && args.includes('-v')) return null;
  if ((name === 'env' || name === 'printenv') && args.some((a) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(a) || name === 'env')) return null;
  if (name === 'sort' && args.some((a) => a === '-o' || a.startsWith('--output') || /^-[a-zA-Z]*o/.test(a))) return null;
  if (name === 'uniq' && args.filter((a) => !a.startsWith('-')).length > 1) return null;
  if (name === 'find' && args.some((a) => a === '-fprint' || a === '-delete')) return null;
  return name;
}
