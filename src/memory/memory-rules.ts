/**
 * What memory never keeps, checked by the harness after the model proposed an entry (seed 001 ch. 9,
 * seed 003 §4.1): anything the code or git can tell (a commit id, a code block, where a file or function
 * lives, what a commit or PR changed). A relative date ("next week") is anchored to the day it was
 * written, so the entry stays true when read later.
 */
import type { MemoryEntry } from './types.js';

type Check = { ok: true; entry: MemoryEntry } | { ok: false; why: string };

const DERIVABLE: Array<[RegExp, string]> = [
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/i, 'it names a commit: the git history tells that'],
  [/```|^\s*(?:import|export|function|const|def|class)\s/m, 'it is code: the repository tells that'],
  [
    /\b(?:file|function|class|module|method|test|component)s?\b[^.]*\b(?:is|are|lives?|located|defined|declared)\s+(?:in|at|under)\b/i,
    'it says where code lives: reading the code tells that',
  ],
  [
    /\b(?:was|were|got)\s+(?:changed|added|removed|fixed|renamed|moved)\s+in\s+(?:commit|pr|pull request|#\d+)/i,
    'it is history: git tells that',
  ],
];

const RELATIVE_DATE =
  /\b(?:today|tonight|tomorrow|yesterday|(?:this|next|last|coming)\s+(?:week|month|quarter|year|sprint|release|monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b/i;

export function checkMemoryEntry(entry: MemoryEntry): Check {
  const text = `${entry.rule}\n${entry.why}`;
  for (const [re, why] of DERIVABLE) if (re.test(text)) return { ok: false, why: `not kept: ${why}` };
  if (!RELATIVE_DATE.test(text) || entry.rule.includes(`(written ${entry.date})`)) return { ok: true, entry };
  return { ok: true, entry: { ...entry, rule: `${entry.rule} (written ${entry.date})` } };
}
