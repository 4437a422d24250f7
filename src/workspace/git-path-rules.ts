/**
 * Paths git refuses to put in an index (its `verify_path` rules, with core.protectNTFS on as it is by
 * default everywhere, and core.protectHFS's rule too, which is on by default on macOS): a file at such a
 * path can never be committed, so the file tools refuse to write one, and the WIP commit leaves it out.
 *
 * The rules, per path component (components split at `/`; for the `.git` checks `\` splits too, as
 * NTFS reads it):
 * - empty, `.` or `..`;
 * - `.git` in any letter case, also followed by dots or spaces (NTFS drops those) or by a `:` stream
 *   name (`.git::$INDEX_ALLOCATION`);
 * - `git~1` (the NTFS 8.3 short name of `.git`), with the same endings;
 * - `.git` with Unicode characters HFS+ ignores (zero-width joiners, direction marks, BOM) inserted.
 * Windows device names (`CON`, `aux.c`) are not refused: git accepts them off Windows, and real repositories carry them.
 */

/** Code points HFS+ ignores when it compares names (git's is_hfs_dotgit list). */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

const NTFS_DOTGIT = /^(?:\.git|git~1)[. ]*(?::.*)?$/i;

/** Why one `\`-free part of a component names git's own folder, or undefined. */
function dotGitWhy(part: string): string | undefined {
  if (NTFS_DOTGIT.test(part)) {
    return part.toLowerCase() === '.git'
      ? `"${part}" is git's own folder name (letter case does not matter to git)`
      : `"${part}" is read as ".git" by Windows (trailing dots or spaces, a ":" stream, or the 8.3 short name git~1)`;
  }
  const hfs = part.replace(HFS_IGNORED, '');
  if (hfs !== part && hfs.toLowerCase() === '.git')
    return `"${JSON.stringify(part).slice(1, -1)}" is read as ".git" by macOS (it ignores invisible characters)`;
  return undefined;
}

/**
 * Why git would refuse to add `rel` (a worktree-relative path, `/`-separated) to an index, or
 * undefined when it accepts it. The text says which component and why, for the model and the evidence.
 */
export function gitPathProblem(rel: string): string | undefined {
  if (rel === '') return 'the path is empty';
  if (rel.startsWith('/')) return 'the path is absolute; git stores paths relative to the repository root';
  if (rel.endsWith('/')) return 'the path ends with "/"';
  for (const comp of rel.split('/')) {
    if (comp === '') return 'the path has an empty component ("//")';
    if (comp === '.' || comp === '..') return `the path has a "${comp}" component`;
    for (const part of comp.split('\\')) {
      const why = dotGitWhy(part);
      if (why) return why;
    }
  }
  return undefined;
}
