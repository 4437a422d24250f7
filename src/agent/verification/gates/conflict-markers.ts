/**
 * A stop with merge-conflict markers left in a changed file is refused: git's own markers (a line of
 * seven `<` then a space or the end, and a line of seven `>` likewise, as `git merge` writes them with the
 * default conflict-marker-size) among the lines the change adds to one file. Both are required, so a
 * setext heading underline (`=======`) or a `<<<<<<<` in a string alone is no conflict.
 */
import type { GateResult } from '../../events.js';
import type { FileDiff } from '../changes/worktree-diff.js';

export const CONFLICT_GATE = 'conflict-markers';

const OPEN = /^<{7}(?: |$)/;
const CLOSE = /^>{7}(?: |$)/;

/** The changed files holding an unresolved conflict, each with the line its first marker is on. */
export function conflictMarkers(diffs: readonly FileDiff[]): Array<{ path: string; line: number }> {
  const out: Array<{ path: string; line: number }> = [];
  for (const d of diffs) {
    if (d.status === 'deleted') continue;
    const open = d.added.find((l) => OPEN.test(l.text));
    if (open && d.added.some((l) => CLOSE.test(l.text) && l.line > open.line)) out.push({ path: d.path, line: open.line });
  }
  return out;
}

export function conflictGate(diffs: readonly FileDiff[]): GateResult {
  const found = conflictMarkers(diffs);
  return found.length === 0
    ? { name: CONFLICT_GATE, passed: true, detail: 'no merge-conflict markers in the changed files' }
    : {
        name: CONFLICT_GATE,
        passed: false,
        detail: `merge-conflict markers are left in ${found.map((f) => `${f.path}:${f.line}`).join(', ')}: resolve each conflict (keep the right side, remove the <<<<<<< ======= >>>>>>> lines) before stopping`,
      };
}
