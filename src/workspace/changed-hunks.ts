/**
 * The lines one commit range changes, from git itself (`git diff -U0 from to`): each hunk with the lines
 * it replaced in `from` (old side) and its own lines. Review follow-ups read it to say whether a commit
 * changed the lines a review thread is on, and to quote what changed there.
 */
import { git } from './git.js';

export interface DiffHunk {
  /** The file's path in `to` (in `from` when the commit deleted it). */
  path: string;
  /** First line of the old side, and how many lines it replaced (0: lines were only added after `oldStart`). */
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** The hunk's lines as the diff prints them: `-old`, `+new`. */
  lines: string[];
}

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** A diff path as git prints it: `b/x`, or C-quoted (`"b/caf\303\251"`) when it holds unusual bytes. */
function diffPath(raw: string): string | undefined {
  let p = raw.replace(/\t$/, '');
  if (p === '/dev/null') return undefined;
  if (p.startsWith('"') && p.endsWith('"')) {
    const bytes: number[] = [];
    const body = p.slice(1, -1);
    for (let i = 0; i < body.length; i++) {
      const c = body[i]!;
      if (c !== '\\') {
        bytes.push(...Buffer.from(c, 'utf8'));
        continue;
      }
      const n = body[i + 1] ?? '';
      if (/[0-7]/.test(n)) {
        bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
        i += 3;
      } else {
        bytes.push(({ n: 10, t: 9, '"': 34, '\\': 92 } as Record<string, number>)[n] ?? n.charCodeAt(0));
        i += 1;
      }
    }
    p = Buffer.from(bytes).toString('utf8');
  }
  return p.replace(/^[ab]\//, '');
}

/** `git diff -U0` output → its hunks. */
export function parseUnifiedDiff(text: string): DiffHunk[] {
  const out: DiffHunk[] = [];
  let oldPath: string | undefined;
  let path: string | undefined;
  let hunk: DiffHunk | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('diff --git ')) {
      hunk = undefined;
      oldPath = path = undefined;
    } else if (!hunk && line.startsWith('--- ')) oldPath = diffPath(line.slice(4));
    else if (!hunk && line.startsWith('+++ ')) path = diffPath(line.slice(4)) ?? oldPath;
    else if (line.startsWith('@@ ')) {
      const m = HEADER.exec(line);
      if (!m || !path) continue;
      hunk = {
        path,
        oldStart: Number(m[1]),
        oldLines: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]),
        newLines: m[4] === undefined ? 1 : Number(m[4]),
        lines: [],
      };
      out.push(hunk);
    } else if (hunk && (line.startsWith('+') || line.startsWith('-'))) hunk.lines.push(line);
  }
  return out;
}

export async function changedHunks(o: { repoDir: string; from: string; to: string }): Promise<DiffHunk[]> {
  const { stdout } = await git(['diff', '-U0', '--no-renames', '--no-ext-diff', '--no-textconv', '--no-color', o.from, o.to, '--'], {
    cwd: o.repoDir,
  });
  return parseUnifiedDiff(stdout);
}
