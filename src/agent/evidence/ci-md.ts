/** The CI section of the PR body and check-run summary: what the repository's own CI said about the pushed commit. */
import type { CiEvidence } from './types.js';

export const CI_START = '<!-- proofpr:ci -->';
export const CI_END = '<!-- /proofpr:ci -->';

const WORD: Record<CiEvidence['state'], string> = {
  passed: 'passed ✅',
  failed: 'failed ❌',
  'not-run': 'did not run ⚠️',
  'awaiting-approval': 'is waiting for a maintainer to approve its runs ⏸️',
  pending: 'still running at the end of the wait ⏳',
};

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** One line: "CI passed ✅ on `abc1234def0` (3 checks)". */
export function ciLine(ci: CiEvidence): string {
  return `CI ${WORD[ci.state]} on \`${ci.sha.slice(0, 12)}\` (${ci.checks.length} check${ci.checks.length === 1 ? '' : 's'})`;
}

export function renderCiSection(ci: CiEvidence): string {
  const out = [CI_START, '### CI on the pushed commit', '', `**${ciLine(ci)}** — state \`${ci.state}\``];
  if (ci.cause) out.push('', `Cause: ${cell(ci.cause)}`);
  if (ci.checks.length > 0) {
    out.push('', '| check | conclusion |', '| --- | --- |');
    for (const c of ci.checks) out.push(`| ${c.url ? `[${cell(c.name)}](${c.url})` : cell(c.name)} | ${cell(c.conclusion)} |`);
  }
  out.push(CI_END);
  return out.join('\n');
}

/** The body with its CI section replaced (or appended when it has none). */
export function withCiSection(body: string, ci: CiEvidence): string {
  const section = renderCiSection(ci);
  const a = body.indexOf(CI_START);
  const b = body.indexOf(CI_END);
  if (a >= 0 && b > a) return `${body.slice(0, a)}${section}${body.slice(b + CI_END.length)}`;
  return `${body.replace(/\s+$/, '')}\n\n${section}\n`;
}
