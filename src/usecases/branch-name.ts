import { redactText } from '../secrets/index.js';

/** Branch names (CONTRACT §1): proofpr/<issue>-<slug>, proofpr/sweep-<name>-<yyyymmdd>, proofpr/prompt-<slug>-<id>. */
export function slugify(title: string, max = 40): string {
  // A branch name is pushed and shown everywhere: a token in the title must not leave even its first characters.
  const s = redactText(title)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/g, '');
  return s || 'task';
}

export function issueBranch(issue: number, title: string): string {
  return `proofpr/${issue}-${slugify(title)}`;
}

export function sweepBranch(name: string, date: Date): string {
  const d = date.toISOString().slice(0, 10).replace(/-/g, '');
  return `proofpr/sweep-${slugify(name)}-${d}`;
}

export function promptBranch(prompt: string, runId: string): string {
  return `proofpr/prompt-${slugify(prompt, 30)}-${runId.slice(-6)}`;
}
