import { git } from '../../../workspace/git.js';

/** One changed region of a file between two commits (`git diff -U0`), with the text on each side. */
export interface Hunk {
  file: string;
  /** The head's lines this hunk replaced the base's with: `headStart` 1-based, `headCount` lines (0: a deletion after line `headStart`). */
  headStart: number;
  headCount: number;
  /** The base's lines, each with its line ending as the base file has it. */
  baseLines: string[];
}

/** The lines of head the hunk names, for the evidence: a deletion is named by the line it followed (at least 1). */
export function hunkRange(h: Hunk): { file: string; startLine: number; endLine: number } {
  const start = Math.max(h.headStart, 1);
  return { file: h.file, startLine: start, endLine: h.headCount > 0 ? h.headStart + h.headCount - 1 : start };
}

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** The base side of one hunk's body: its `-` lines with their endings (`\ No newline at end of file` drops the last one's). */
function baseSide(body: readonly string[]): string[] {
  const out: string[] = [];
  let last: '-' | '+' | undefined;
  for (const l of body) {
    if (l.startsWith('-')) {
      out.push(`${l.slice(1)}\n`);
      last = '-';
    } else if (l.startsWith('+')) last = '+';
    else if (l.startsWith('\\') && last === '-' && out.length) out[out.length - 1] = (out[out.length - 1] ?? '').replace(/\n$/, '');
  }
  return out;
}

/** Parses `git diff -U0` output of one file's section into its hunks. */
function parseFile(file: string, lines: readonly string[]): Hunk[] {
  const hunks: Hunk[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = HEADER.exec(lines[i] ?? '');
    if (!m) continue;
    let j = i + 1;
    while (j < lines.length && !HEADER.test(lines[j] ?? '')) j++;
    hunks.push({
      file,
      headStart: Number(m[3]),
      headCount: m[4] === undefined ? 1 : Number(m[4]),
      baseLines: baseSide(lines.slice(i + 1, j)),
    });
    i = j - 1;
  }
  return hunks;
}

/** The head's path on a `+++ b/<path>` line; git quotes a path with a quote, backslash or control character (C escapes). */
function headPath(line: string | undefined): string | undefined {
  const rest = line?.slice('+++ '.length);
  if (rest?.startsWith('b/')) return rest.slice(2);
  if (!rest?.startsWith('"b/')) return undefined;
  try {
    return (JSON.parse(rest) as string).slice(2);
  } catch {
    return undefined;
  }
}

/**
 * Every hunk changed from `base` to `head` in `files` (paths of head; a file head deleted has no lines to
 * name and is left out), read from git's own diff without context lines and without rename detection.
 */
export async function diffHunks(opts: {
  root: string;
  gitDir?: string;
  base: string;
  head: string;
  files: readonly string[];
}): Promise<Hunk[]> {
  if (opts.files.length === 0) return [];
  const g = { cwd: opts.root, config: { 'core.quotePath': 'false' }, ...(opts.gitDir ? { env: { GIT_DIR: opts.gitDir } } : {}) };
  const out: Hunk[] = [];
  for (let i = 0; i < opts.files.length; i += 200) {
    const part = opts.files.slice(i, i + 200);
    const r = await git(
      [
        'diff',
        '-U0',
        '--no-color',
        '--no-ext-diff',
        '--no-renames',
        '--src-prefix=a/',
        '--dst-prefix=b/',
        '--diff-filter=AM',
        opts.base,
        opts.head,
        '--',
        ...part,
      ],
      g,
    );
    const sections = r.stdout.split(/^(?=diff --git )/m).filter((s) => s.startsWith('diff --git '));
    for (const s of sections) {
      const lines = s.split('\n');
      const file = headPath(lines.find((l) => l.startsWith('+++ ')));
      if (file === undefined) continue; // binary, or a mode change only
      out.push(...parseFile(file, lines));
    }
  }
  return out;
}

/** `text` (the head's file) with `hunks` of it put back to the base's lines. */
export function revertHunks(text: string, hunks: readonly Hunk[]): string {
  const lines = text.split(/(?<=\n)/);
  // Bottom to top, so the line numbers of the hunks still to do stay right.
  for (const h of [...hunks].sort((a, b) => b.headStart - a.headStart)) {
    const at = h.headCount === 0 ? h.headStart : h.headStart - 1;
    lines.splice(at, h.headCount, ...h.baseLines);
  }
  return lines.join('');
}
