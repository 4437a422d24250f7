import { existsSync } from 'node:fs';
import { OPTION_TABLES } from './option-tables.js';
import { hasOption, parseOptions, type OptionTable } from './parse-options.js';
import { join } from 'node:path';
import { DENIED_GIT, GIT_DANGEROUS_LONG, GIT_SAFE_GLOBALS, PM_DANGEROUS_LONG, PUBLISH_SUBCOMMANDS } from './builtin-deny.js';

/** A refusal reason, or null when the arguments are acceptable. `args` excludes the command name. */
export type ArgCheck = (args: readonly string[], root: string) => string | null;

function abbreviates(arg: string, long: readonly string[], exact: readonly string[] = []): string | null {
  if (!arg.startsWith('--') || arg.length < 3) return null;
  const name = arg.split('=')[0] as string;
  if (exact.includes(name)) return null;
  return long.find((l) => l.startsWith(name)) ?? null;
}

function shortCluster(arg: string, letters: string): boolean {
  return /^-[A-Za-z0-9]+/.test(arg) && !arg.startsWith('--') && [...letters].some((l) => arg.slice(1).split(/[=\d]/)[0]?.includes(l));
}

/** `git cat-file --batch`, `--batch-command`, `--batch-all-objects` (or an abbreviation): only `--batch-check` prints no content. */
function catFileBatch(arg: string): boolean {
  const name = arg.split('=')[0] as string;
  return name.startsWith('--batch') && name !== '--batch-check';
}

export const checkGit: ArgCheck = (args) => {
  let i = 0;
  while (i < args.length && (args[i] as string).startsWith('-')) {
    const g = args[i] as string;
    if (!GIT_SAFE_GLOBALS.has(g))
      return `git option ${g} before the subcommand is not allowed (it can run programs or point git elsewhere); run git <subcommand> from the worktree root`;
    i++;
  }
  const sub = args[i];
  if (sub === undefined) return null;
  if (DENIED_GIT.has(sub))
    return `git ${sub} is never allowed (network, configuration or running programs); the harness pushes and opens the PR itself`;
  const rest = args.slice(i + 1);
  for (const a of rest) {
    if (a === '--') break;
    const hit = abbreviates(a, GIT_DANGEROUS_LONG, ['--text', '--exit-code']);
    if (hit) return `git option ${a} (${hit}) is not allowed: it runs programs, writes files or points git elsewhere`;
    if (sub === 'cat-file' && catFileBatch(a))
      return `git cat-file ${a} prints objects named on stdin or the whole object store (a secret file's blob without its path); use git cat-file -p <rev>:<path> or git show`;
    if (sub === 'rebase' && (a === '-x' || shortCluster(a, 'x'))) return 'git rebase -x runs commands; not allowed';
    if (sub === 'grep' && shortCluster(a, 'O')) return 'git grep -O opens a pager program; not allowed';
    if (sub === 'format-patch' && shortCluster(a, 'o')) return 'git format-patch -o writes outside git; not allowed';
  }
  return null;
};

const FIND_DENIED = new Set(['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls']);
export const checkFind: ArgCheck = (args) => {
  const bad = args.find((a) => FIND_DENIED.has(a));
  return bad ? `find ${bad} runs commands or changes files; list files with find, then act on them with separate commands` : null;
};

export const checkRg: ArgCheck = (args) => {
  for (const a of args) {
    if (a === '--') break;
    const hit = abbreviates(a, ['--pre', '--pre-glob', '--search-zip', '--hostname-bin']);
    if (hit) return `rg ${hit} runs external programs; search without it`;
    if (shortCluster(a, 'z')) return 'rg -z runs decompression programs; search without it';
  }
  return null;
};

function sedScriptSafe(script: string): boolean {
  let s = script.replace(/\\./g, 'X');
  s = s.replace(/s(.)(?:(?!\1).)*\1(?:(?!\1).)*\1([A-Za-z0-9]*)/gs, (_m, _d: string, flags: string) =>
    /[eEwW]/.test(flags) ? ' e ' : ' ',
  );
  s = s.replace(/y(.)(?:(?!\1).)*\1(?:(?!\1).)*\1/gs, ' ');
  s = s.replace(/\/[^/]*\//g, ' ');
  // Labels and branches (`:a;N;$!ba`, `t`, `T`): GNU sed ends a label at `;` or whitespace, so what follows is judged.
  s = s.replace(/:[^;}\s]*/g, ' ').replace(/[btT][ \t]*[^;}\s]*/g, ' ');
  return /^[\s\d,;$!{}pdqQnNgGhHxlPDz=+~^-]*$/.test(s);
}

/** sed: only s///, y///, p, d, q-style scripts (no e, w, r commands); `-i` is handled as a write by the caller. */
export const checkSed: ArgCheck = (args) => {
  const p = parseOptions(OPTION_TABLES.sed as OptionTable, args);
  if (!p.ok)
    return `sed ${p.bad}: not an option this policy knows for sed (it may run or read something else); use -n, -e, -E, -s, -z or the Edit tool`;
  if (hasOption(p, '-f', '--file')) return 'sed -f reads a script file; pass the script inline with -e';
  const scripts = p.options.filter((o) => o.name === '-e' || o.name === '--expression').map((o) => o.value ?? '');
  if (scripts.length === 0 && p.operands[0] !== undefined) scripts.push(p.operands[0]);
  const bad = scripts.find((s) => !sedScriptSafe(s));
  return bad === undefined
    ? null
    : `sed script ${JSON.stringify(bad)} uses commands beyond s///, y///, p, d, q (e, w, r, a, i, c run programs or touch other files); use the Edit tool for edits`;
};

const INLINE: Record<string, { short: string; long: string[] }> = {
  node: { short: 'ep', long: ['--eval', '--print'] },
  nodejs: { short: 'ep', long: ['--eval', '--print'] },
  bun: { short: 'e', long: ['--eval', '--print'] },
  deno: { short: '', long: [] },
  python: { short: 'c', long: [] },
  perl: { short: 'eE', long: [] },
  ruby: { short: 'e', long: [] },
  php: { short: 'rR', long: [] },
  lua: { short: 'e', long: [] },
  bash: { short: 'c', long: [] },
  sh: { short: 'c', long: [] },
  zsh: { short: 'c', long: [] },
  dash: { short: 'c', long: [] },
  ksh: { short: 'c', long: [] },
  fish: { short: 'c', long: ['--command'] },
};

export function interpreterOf(name: string): string | null {
  if (/^python[\d.]*$/.test(name) || /^pypy\d*$/.test(name)) return 'python';
  return INLINE[name] ? name : null;
}

/** Interpreters: no inline code (`-e`, `-c`, `--eval`...), no code from stdin (a script file must be named). */
export function checkInterpreter(kind: string, args: readonly string[]): string | null {
  const spec = INLINE[kind] as { short: string; long: string[] };
  let hasTarget = false;
  for (const a of args) {
    if (a === '-' || (['bash', 'sh', 'zsh', 'dash', 'ksh'].includes(kind) && shortCluster(a, 's'))) {
      return `${kind} reading code from stdin is not allowed; write the code to a file in the worktree and run that file`;
    }
    if (a.startsWith('--') && spec.long.some((l) => l.startsWith(a.split('=')[0] as string))) {
      return `${kind} ${a} runs inline code; write the code to a file in the worktree and run that file`;
    }
    if (spec.short && shortCluster(a, spec.short))
      return `${kind} ${a} runs inline code; write the code to a file in the worktree and run that file`;
    if (kind === 'deno' && a === 'eval') return 'deno eval runs inline code; write the code to a file and run it';
    if (
      !a.startsWith('-') ||
      (kind === 'python' && a === '-m') ||
      (kind === 'node' && /^--(test|run|version|help)/.test(a)) ||
      /^(-V|--version|-v|-h|--help)$/.test(a)
    ) {
      hasTarget = true;
      break;
    }
  }
  if (!hasTarget && kind !== 'deno' && kind !== 'bun')
    return `${kind} without a script file reads code from stdin; write the code to a file in the worktree and run that file`;
  return null;
}

/** npx / npm exec / pnpm exec / bunx: only packages already installed in <root>/node_modules. */
export function checkLocalPackage(launcher: string, args: readonly string[], root: string): string | null {
  for (const a of args) {
    if (a === '-p' || a.startsWith('--package') || a === '-c' || a.startsWith('--call'))
      return `${launcher} ${a} can fetch and run arbitrary code; not allowed`;
    if (a.startsWith('-')) continue;
    const name = a.startsWith('@') ? a.replace(/^(@[^/]+\/[^@]+)@.*$/, '$1') : (a.split('@')[0] as string);
    const local = name.startsWith('@') ? join(root, 'node_modules', name) : join(root, 'node_modules', '.bin', name);
    if (/^[@\w./-]+$/.test(name) && !name.includes('..') && existsSync(local)) return null;
    return `${launcher} ${a}: the package is not installed in this worktree (${launcher} would download it); add it to devDependencies or run an installed tool`;
  }
  return `${launcher} without a package name is not allowed`;
}

/** npm / yarn / pnpm / bun: no publishing, no options that swap the shell or config, no remote packages. */
export const checkPackageManager = (pm: string, args: readonly string[], root: string): string | null => {
  const sub = args.find((a) => !a.startsWith('-'));
  for (const a of args) {
    const hit = abbreviates(a, PM_DANGEROUS_LONG);
    if (hit) return `${pm} ${hit} runs a program of the caller's choosing; not allowed`;
  }
  if (sub !== undefined && PUBLISH_SUBCOMMANDS.has(sub)) return `${pm} ${sub} is never allowed (publishing and registry accounts)`;
  if (sub === 'dlx') return `${pm} dlx always downloads a package; run an installed tool instead`;
  if ((pm === 'npm' && (sub === 'exec' || sub === 'x')) || (pm === 'pnpm' && sub === 'exec')) {
    return checkLocalPackage(`${pm} ${sub}`, args.slice(args.indexOf(sub) + 1), root);
  }
  return null;
};

/** Does a short-option cluster (`-rnL`) hold `letter` before a letter that takes the rest as its value? */
function clusterHas(arg: string, letter: string, valueLetters = ''): boolean {
  if (!/^-[A-Za-z]/.test(arg) || arg.startsWith('--')) return false;
  for (const ch of arg.slice(1)) {
    if (ch === letter) return true;
    if (valueLetters.includes(ch) || !/[A-Za-z]/.test(ch)) return false;
  }
  return false;
}

/** Option words before `--`, leaving out the separate value of an option cluster ending in a value letter (`-e -R`). */
function optionArgs(args: readonly string[], valueLetters: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') break;
    out.push(a);
    if (/^-[A-Za-z]+$/.test(a)) {
      const first = [...a.slice(1)].findIndex((c) => valueLetters.includes(c));
      if (first === a.length - 2) i++;
    }
  }
  return out;
}

const has = (opts: readonly string[], long: readonly string[], letter: string, valueLetters = ''): boolean =>
  opts.some((a) => long.includes(a.split('=')[0] as string) || clusterHas(a, letter, valueLetters));

const VALUE_LETTERS: Record<string, string> = {
  grep: 'efmABCdD',
  egrep: 'efmABCdD',
  fgrep: 'efmABCdD',
  rg: 'ABCefgjmMtTErd',
  ls: 'IwTp',
  du: 'BdtX',
  tree: 'LIPoH',
  cp: 'StT',
  tar: 'fCbgKLNTVX',
  zip: 'bnstxi',
  diff: 'CUFIDSLxXW',
};

/**
 * Options that make a recursive walk follow symlinks: a committed link such as `gitlink -> ../repo/.git`
 * would lead the walk out of the worktree (path operands are jailed, the links met during the walk are not).
 */
export function checkFollowLinks(base: string, args: readonly string[]): string | null {
  const o = optionArgs(args, VALUE_LETTERS[base] ?? '');
  const refuse = (flag: string, instead: string): string =>
    `${base} ${flag} follows symlinks while it walks folders, which can lead out of the worktree; ${instead}`;
  switch (base) {
    case 'grep':
    case 'egrep':
    case 'fgrep':
      return has(o, ['--dereference-recursive'], 'R', 'efmABCdD')
        ? refuse('-R', 'use grep -r (it does not follow symlinks) or the Grep tool')
        : null;
    case 'rg':
      return has(o, ['--follow'], 'L', 'ABCefgjmMtTErd') ? refuse('-L/--follow', 'search without it, or use the Grep tool') : null;
    case 'find':
      return args.some((a) => a === '-L' || a === '-follow')
        ? refuse('-L/-follow', 'list files without following links, or use the Glob tool')
        : null;
    case 'ls':
      return has(o, ['--dereference'], 'L', 'IwTp') && has(o, ['--recursive'], 'R', 'IwTp')
        ? refuse('-LR', 'use ls -R without -L, or the Glob tool')
        : null;
    case 'du':
      return has(o, ['--dereference'], 'L', 'BdtX') ? refuse('-L', 'use du without -L') : null;
    case 'tree':
      return has(o, ['--follow'], 'l', 'LIPoH') ? refuse('-l', 'use tree without -l, or the Glob tool') : null;
    case 'cp':
      return has(o, ['--dereference'], 'L', 'StT') ? refuse('-L', 'copy without -L (links are copied as links)') : null;
    case 'tar':
      return has(o, ['--dereference'], 'h', 'fCbgKLNTVX') || (o[0] !== undefined && !o[0].startsWith('-') && o[0].includes('h'))
        ? refuse('-h/--dereference', 'archive without it (links are stored as links)')
        : null;
    case 'zip':
      return has(o, ['--recurse-paths'], 'r', 'bnstxi') || has(o, [], 'R', 'bnstxi')
        ? has(o, ['--symlinks'], 'y', 'bnstxi')
          ? null
          : refuse('-r without -y', 'add -y (--symlinks) so links are stored as links')
        : null;
    case 'diff':
      return has(o, ['--recursive'], 'r', 'CUFIDSLxXW') && !o.includes('--no-dereference')
        ? refuse('-r', 'add --no-dereference, or compare files one by one')
        : null;
    default:
      return null;
  }
}
