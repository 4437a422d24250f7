import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { walkTree } from '../../workspace/walk-tree.js';
import { maskedInSandbox } from '../../workspace/world.js';
import { isSecretFile, resolveInside } from './path-jail.js';
import type { PathContext, PathRefusal } from './path-args.js';
import { firstDeniedUnder, isReadPathRule, readDeniedBy } from './read-deny.js';
import type { PermissionRule } from './rules.js';
import type { IgnoredPaths } from './git-ignored.js';
import { splitLoose } from './parse-options.js';

const GREP_RECURSE = /^(--recursive|--dereference-recursive|--directories=recurse|-d\s*recurse)$/;
const PATTERN_OPT = /^(-e|-f|--regexp|--file)(=|$)/;

function grepRecurses(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') break;
    if (GREP_RECURSE.test(a) || (a === '-d' && args[i + 1] === 'recurse')) return true;
    if (/^-[A-Za-z]+$/.test(a) && /[rR]/.test(a)) return true;
  }
  return false;
}

/** Non-option arguments after the pattern (the pattern is the first one unless -e/-f names it). */
function pathOperands(args: readonly string[]): string[] {
  const { operands } = splitLoose(args, (a) => /^(-e|-f|--regexp|--file)$/.test(a));
  return args.some((a) => PATTERN_OPT.test(a)) ? operands : operands.slice(1);
}

/** What a recursive search reads: its path operands, or null when the command does not recurse. */
export function searchOperands(base: string, args: readonly string[]): string[] | null {
  if (base === 'rg') return args.includes('--files') || args.includes('--type-list') ? null : pathOperands(args);
  if ((base === 'grep' || base === 'egrep' || base === 'fgrep') && grepRecurses(args)) return pathOperands(args);
  if (base === 'git') {
    const at = args.indexOf('grep');
    if (at === -1 || args.slice(0, at).some((a) => !a.startsWith('-'))) return null;
    const rest = args.slice(at + 1);
    const dd = rest.indexOf('--');
    return dd === -1 ? [] : rest.slice(dd + 1);
  }
  return null;
}

/** rg skips dot-files unless --hidden, -. or -uu (two or more u's) says otherwise. */
function rgSearchesHidden(args: readonly string[]): boolean {
  let u = 0;
  for (const a of args) {
    if (a === '--') break;
    if (a === '--hidden' || a === '--unrestricted') u += a === '--hidden' ? 2 : 1;
    else if (/^-[A-Za-z.]+$/.test(a)) {
      if (a.includes('.')) u += 2;
      u += [...a].filter((c) => c === 'u').length;
    }
  }
  return u >= 2;
}

/** rg honours .gitignore unless -u, --unrestricted or a --no-ignore option says otherwise. */
function rgHonoursIgnore(args: readonly string[]): boolean {
  for (const a of args) {
    if (a === '--') break;
    if (a === '--unrestricted' || a.startsWith('--no-ignore') || (/^-[A-Za-z.]+$/.test(a) && a.includes('u'))) return false;
  }
  return true;
}

type Hit = { path: string; rule: PermissionRule } | null;

/**
 * The first denied file among those git lists under `rel`: tracked only (git grep), or tracked plus
 * untracked-not-ignored (what rg searches by default). undefined when git cannot list them.
 */
function firstDeniedListed(
  git: IgnoredPaths,
  rules: readonly PermissionRule[],
  rel: string,
  untracked: boolean,
  skipHidden: boolean,
): Hit | undefined {
  const files = git.listFiles(rel, untracked);
  if (files === undefined) return undefined;
  for (const f of files) {
    const below = rel === '' ? f : f.slice(rel.length + 1);
    if (f === '' || (skipHidden && below.split('/').some((seg) => seg.startsWith('.')))) continue;
    const rule = readDeniedBy(rules, f);
    if (rule) return { path: f, rule };
  }
  return null;
}

/**
 * grep -r, rg and git grep read every file under their folders, so a Read(...) deny rule must hold for
 * the whole tree they walk. Operands that name nothing (option values, a missing path) fall back to
 * the worktree root, which such searches use when no path is given.
 */
export function checkSearchScope(base: string, args: readonly string[], ctx: PathContext): PathRefusal | null {
  if (!ctx.deny?.some(isReadPathRule)) return null;
  const operands = searchOperands(base, args);
  if (operands === null) return null;
  const folders: string[] = [];
  for (const cwd of ctx.cwds) {
    for (const o of operands) {
      const r = resolveInside(ctx.root, o, { gitDirs: ctx.gitDirs, cwd });
      if (r.ok && existsSync(r.abs)) folders.push(r.rel);
    }
  }
  if (folders.length === 0) folders.push('');
  const shown = base === 'git' ? 'git grep' : base;
  const skipHidden = base === 'rg' && !rgSearchesHidden(args);
  const listed = (base === 'git' && !args.includes('--untracked')) || (base === 'rg' && rgHonoursIgnore(args));
  for (const f of new Set(folders)) {
    // rg searches a folder named on its command line even when git ignores it: then walk it all.
    const gitLists = listed && (base === 'git' || (ctx.ignored !== undefined && !ctx.ignored.isIgnored(f)));
    const fromGit = gitLists && ctx.ignored ? firstDeniedListed(ctx.ignored, ctx.deny, f, base === 'rg', skipHidden) : undefined;
    const hit = fromGit !== undefined ? fromGit : firstDeniedUnder(ctx.root, ctx.deny, f, { skipHidden });
    if (hit === 'too-many') {
      return {
        rule: 'builtin-deny:search-scope',
        reason: `${shown} would search ${f || 'the whole worktree'}, too many files to check against the Read deny rules in permissions.deny; use the Grep tool (it leaves denied files out) or search a narrower folder`,
      };
    }
    if (hit) {
      return {
        rule: `config-deny:${hit.rule.text}`,
        reason: `${shown} would read ${hit.path}, which permissions.deny "${hit.rule.text}" in ${ctx.configFile ?? '.github/proofpr.yml'} covers; use the Grep tool (it leaves denied files out) or search a folder without denied files`,
      };
    }
  }
  return null;
}

const under = (folder: string, rel: string): boolean => folder === '' || rel === folder || rel.startsWith(`${folder}/`);

interface Folders {
  /** Worktree-relative folders (and files) the search walks. */
  rels: string[];
  /** Those in a linked dependency folder, named through the link, with their real path. */
  linked: Array<{ rel: string; abs: string }>;
}

/** The folders a recursive search walks (its operands, or the folders it starts in): in the worktree, or in a linked dependency folder. */
function searchFolders(operands: readonly string[], ctx: PathContext): Folders {
  const out: Folders = { rels: [], linked: [] };
  const add = (r: ReturnType<typeof resolveInside>): void => {
    if (!r.ok) return;
    out.rels.push(r.rel);
    if (r.linked) out.linked.push({ rel: r.rel, abs: r.abs });
  };
  for (const cwd of ctx.cwds) {
    if (operands.length === 0) add(resolveInside(ctx.root, '.', { gitDirs: ctx.gitDirs, cwd, linked: true }));
    for (const o of operands) {
      const r = resolveInside(ctx.root, o, { gitDirs: ctx.gitDirs, cwd, linked: true });
      if (r.ok && existsSync(r.abs)) add(r);
    }
  }
  return { rels: [...new Set(out.rels.length ? out.rels : [''])], linked: out.linked };
}

/** Entries a search of a linked dependency folder may walk before the policy gives up checking it for secrets. */
const LINKED_WALK_CAP = 20_000;

/**
 * A search of a linked dependency folder reads files the sandbox does not mask (it masks the worktree's):
 * allowed when a walk of that folder finds no secret-looking file (an `.npmrc` with a token, a key).
 */
function secretInLinked(folders: Folders, shown: string, ctx: PathContext): PathRefusal | null {
  for (const f of folders.linked) {
    let hit: string | undefined;
    const end = walkTree(
      f.abs,
      ({ rel, dirent }) => {
        const named = `${f.rel}/${rel}`;
        if (!dirent.isFile() || !isSecretFile(named, join(f.abs, rel)) || ctx.secretExempt(named)) return undefined;
        hit = named;
        return 'stop';
      },
      { cap: LINKED_WALK_CAP, skip: (e) => e.name === '.git' },
    );
    if (hit)
      return {
        rule: 'builtin-deny:secret',
        reason: `${shown} would read ${hit}, a secret file in a linked dependency folder; search a narrower folder, or use the Grep tool (it leaves secret files out)`,
      };
    if (end === 'truncated')
      return {
        rule: 'builtin-deny:search-scope',
        reason: `${shown} would walk more files of ${f.rel} than the policy checks for secrets; search a narrower folder or use the Grep tool`,
      };
  }
  return null;
}

/** Does this git grep read committed blobs (--cached, or a revision before `--`) rather than the files of the worktree? */
function gitGrepReadsObjects(args: readonly string[]): boolean {
  const rest = args.slice(args.indexOf('grep') + 1);
  if (rest.includes('--cached')) return true;
  const dd = rest.indexOf('--');
  return pathOperands(dd === -1 ? rest : rest.slice(0, dd)).length > 0;
}

/**
 * grep -r, rg and git grep print what they find: a secret file (.env, a private key, an .npmrc with a
 * token) in the tree they walk would be printed. rg skips hidden and git-ignored files unless told
 * otherwise; git grep reads tracked files (or untracked ones with --untracked). A secret file the
 * run's sandbox masks (world.ts) is read empty there, so it does not stop a search of the worktree's
 * files; git grep of committed blobs (--cached, a revision) still stops. A search of a linked dependency
 * folder is walked for secrets itself.
 */
export function checkSecretScope(base: string, args: readonly string[], ctx: PathContext): PathRefusal | null {
  if (!ctx.index) return null;
  const operands = searchOperands(base, args);
  if (operands === null) return null;
  const shown = base === 'git' ? 'git grep' : base;
  const folders = searchFolders(operands, ctx);
  const inDeps = secretInLinked(folders, shown, ctx);
  if (inDeps) return inDeps;
  const { files, truncated } = ctx.index.secrets();
  if (truncated)
    return {
      rule: 'builtin-deny:search-scope',
      reason: `${shown} would walk more files than the policy checks for secrets; search a narrower folder or use the Grep tool`,
    };
  const skipHidden = base === 'rg' && !rgSearchesHidden(args);
  const honoursIgnore = (base === 'rg' && rgHonoursIgnore(args)) || (base === 'git' && !args.includes('--untracked'));
  const readsFiles = base !== 'git' || !gitGrepReadsObjects(args);
  for (const f of files) {
    if (!folders.rels.some((d) => under(d, f))) continue;
    if (readsFiles && maskedInSandbox(ctx.root, f)) continue;
    if (skipHidden && f.split('/').some((seg) => seg.startsWith('.'))) continue;
    if (honoursIgnore && ctx.ignored?.isIgnored(f)) continue;
    if (base === 'git' && !args.includes('--untracked') && !(ctx.ignored?.listFiles(f, false)?.includes(f) ?? false)) continue;
    return {
      rule: 'builtin-deny:secret',
      reason: `${shown} would read ${f}, a secret file (keys, tokens, .env); search a folder without it, or use the Grep tool (it leaves secret files out)`,
    };
  }
  return null;
}

/**
 * A walk that follows symlinks (grep -R, rg -L, find -L) is fine when no symlink under it leads out of
 * the worktree; a linked dependency folder is not checked for links, so such a walk of one is refused.
 */
export function linksEscapeUnder(operands: readonly string[], ctx: PathContext): string | null {
  if (!ctx.index) return 'unknown';
  const { links, truncated } = ctx.index.escapingLinks();
  if (truncated) return 'too many files to check';
  const folders = searchFolders(operands, ctx);
  if (folders.linked[0]) return folders.linked[0].rel;
  return links.find((l) => folders.rels.some((d) => under(d, l))) ?? null;
}
