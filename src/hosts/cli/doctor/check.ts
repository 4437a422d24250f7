/** One line of `proofpr doctor`: what was checked, how it went, and the fix when it did not. */
export interface CheckResult {
  name: string;
  status: 'ok' | 'warn' | 'fail' | 'skip';
  detail: string;
  fix?: string;
}

export function formatCheck(c: CheckResult): string {
  const tag = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', skip: 'skip' }[c.status];
  return `${tag}  ${c.name}: ${c.detail}${c.fix ? `\n      fix: ${c.fix}` : ''}\n`;
}
