import { git } from '../../../workspace/git.js';
import { stageAllAndWriteTree, withTempIndex } from '../../../workspace/temp-index.js';

export interface DiffLine {
  /** Line number in the old file (removed lines) or the new file (added lines). */
  line: number;
  text: string;
}

export interface FileDiff {
  /** Path in the worktree now (the old path for a deleted file). */
  path: string;
  oldPath?: string;
  status: 'added' | 'deleted' | 'modified' | 'renamed';
  removed: DiffLine[];
  added: DiffLine[];
}

/**
 * The change from `baseSha` to the worktree as it is now, untracked files included: everything is
 * staged into a throw-away index (`git add -A`, .gitignore honoured) and diffed against the base
 * with renames detected and no context lines, every file as text (whatever .gitattributes says). The
 * real index is never touched. `gitDir`: the worktree's git dir as createWorktree recorded it.
 */
export async function worktreeDiff(
  root: string,
  baseSha: string,
  paths: (path: string) => boolean = () => true,
  gitDir?: string,
): Promise<FileDiff[]> {
  const patch = await withTempIndex(
    root,
    async (env) => {
      const tree = await stageAllAndWriteTree(root, env);
      // --text: a `.gitattributes` `-diff`/`binary` line must not turn a test file into "Binary files differ".
      const r = await git(['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--text', '-M', '--unified=0', baseSha, tree], {
        cwd: env.GIT_WORK_TREE ?? root,
        env,
        config: { 'core.quotePath': 'false', 'diff.noprefix': 'false' },
      });
      return r.stdout;
    },
    gitDir,
  );
  return parsePatch(patch).filter((f) => paths(f.path) || (f.oldPath !== undefined && paths(f.oldPath)));
}

/** Reads `git diff --unified=0` output into per-file added/removed lines. */
export function parsePatch(patch: string): FileDiff[] {
  const files: FileDiff[] = [];
  let cur: FileDiff | undefined;
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  for (const line of patch.split('\n')) {
    const head = /^diff --git a\/(.*) b\/(.*)$/.exec(line);
    if (head) {
      cur = { path: head[2] ?? '', status: 'modified', removed: [], added: [] };
      if (head[1] !== head[2]) cur.oldPath = head[1] ?? '';
      files.push(cur);
      inHunk = false;
      continue;
    }
    if (!cur) continue;
    if (inHunk && line.startsWith('-')) cur.removed.push({ line: oldLine++, text: line.slice(1) });
    else if (inHunk && line.startsWith('+')) cur.added.push({ line: newLine++, text: line.slice(1) });
    else if (line.startsWith('new file mode')) cur.status = 'added';
    else if (line.startsWith('deleted file mode')) {
      cur.status = 'deleted';
    } else if (line.startsWith('rename from ')) {
      cur.status = 'renamed';
      cur.oldPath = line.slice('rename from '.length);
    } else if (line.startsWith('rename to ')) cur.path = line.slice('rename to '.length);
    else if (line.startsWith('@@')) {
      const m = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
      oldLine = Number(m?.[1] ?? 0);
      newLine = Number(m?.[2] ?? 0);
      inHunk = true;
    }
  }
  return files;
}
