/**
 * The model's per-thread report, read from its final message: `thread T1: addressed` or
 * `thread T2: not addressed: <why>`, one line each. A claim only: answer-threads.ts checks it against the
 * commit before anything is said in a thread. The last line for a thread wins; unknown keys are ignored.
 */

/** `how`: what the run said after `addressed:` (its own account of the change), when it said anything. */
export type ThreadClaim = { addressed: true; how?: string } | { addressed: false; why: string };

const LINE = /^[ \t>*`-]*thread[ \t]+(T\d+)[ \t]*[:\-–—][ \t]*(not[ \t]+addressed|addressed)\b[ \t:\-–—]*(.*)$/gim;

export function parseThreadReport(text: string, keys: readonly string[]): Map<string, ThreadClaim> {
  const known = new Set(keys.map((k) => k.toUpperCase()));
  const out = new Map<string, ThreadClaim>();
  for (const m of text.matchAll(LINE)) {
    const key = (m[1] ?? '').toUpperCase();
    if (!known.has(key)) continue;
    const addressed = !/^not/i.test(m[2] ?? '');
    const rest = (m[3] ?? '').replace(/`+$/, '').trim().slice(0, 300);
    out.set(key, addressed ? { addressed: true, ...(rest ? { how: rest } : {}) } : { addressed: false, why: rest || 'no reason given' });
  }
  return out;
}

/** The text of the run's last assistant message that said anything (its final answer). */
export function lastAssistantText(blocks: ReadonlyArray<{ type: string; text?: string }>): string {
  return blocks
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text)
    .join('\n');
}
