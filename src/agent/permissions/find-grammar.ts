/*
 * find's expression, token by token (GNU findutils manual): starting options, then paths, then tests,
 * operators and the read-only actions. Anything else (-exec, -execdir, -ok, -okdir, -delete, -fprint*,
 * -fls, -files0-from, an unknown word) makes `find` not safe.
 */
const START = new Set(['-H', '-L', '-P']);
const ZERO = new Set([
  '-daystart',
  '-depth',
  '-follow',
  '-mount',
  '-xdev',
  '-noleaf',
  '-ignore_readdir_race',
  '-noignore_readdir_race',
  '-nowarn',
  '-warn',
  '-true',
  '-false',
  '-empty',
  '-executable',
  '-readable',
  '-writable',
  '-nogroup',
  '-nouser',
  '-print',
  '-print0',
  '-prune',
  '-quit',
  '-ls',
  '-a',
  '-and',
  '-o',
  '-or',
  '-not',
  '!',
  '(',
  ')',
  ',',
  '-help',
  '--help',
  '-version',
  '--version',
]);
const ONE = new Set([
  '-maxdepth',
  '-mindepth',
  '-amin',
  '-anewer',
  '-atime',
  '-cmin',
  '-cnewer',
  '-ctime',
  '-fstype',
  '-gid',
  '-group',
  '-ilname',
  '-iname',
  '-inum',
  '-ipath',
  '-iregex',
  '-iwholename',
  '-links',
  '-lname',
  '-mmin',
  '-mtime',
  '-name',
  '-newer',
  '-path',
  '-perm',
  '-regex',
  '-regextype',
  '-samefile',
  '-size',
  '-type',
  '-uid',
  '-used',
  '-user',
  '-wholename',
  '-xtype',
  '-context',
  '-printf',
]);
/** Tests whose value names a file find reads (its timestamps): path-checked by the caller like operands. */
export const FIND_FILE_TESTS: ReadonlySet<string> = new Set(['-anewer', '-cnewer', '-newer', '-samefile']);

export interface FindParse {
  /** Starting points (paths find walks). */
  paths: string[];
  /** File names that tests refer to (-newer F, -samefile F). */
  files: string[];
}

/** Parse find's arguments; a string is the token that makes it not safe. */
export function parseFind(args: readonly string[]): FindParse | string {
  let i = 0;
  while (i < args.length && (START.has(args[i] as string) || /^-D$|^-O\d$/.test(args[i] as string))) i += args[i] === '-D' ? 2 : 1;
  const paths: string[] = [];
  while (i < args.length && !/^[-!(),]/.test(args[i] as string)) paths.push(args[i++] as string);
  const files: string[] = [];
  for (; i < args.length; i++) {
    const t = args[i] as string;
    if (ZERO.has(t)) continue;
    if (ONE.has(t) || /^-newer[aBcmt][aBcmt]$/.test(t)) {
      const v = args[i + 1];
      if (v === undefined) return t;
      if (FIND_FILE_TESTS.has(t) || (t.startsWith('-newer') && !t.endsWith('t'))) files.push(v);
      i++;
      continue;
    }
    return t;
  }
  return { paths, files };
}
