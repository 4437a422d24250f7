/** One line of `proofpr doctor`: what was checked, how it went, and the fix when it did not. */
export interface CheckResult {
  name: string;
  status: 'ok' | 'warn' | 'fail' | 'skip';
  detail: string;
  fix?: string;
}

/** A check's line: a result that needs no fix leaves it out. */
export function checked(name: string, status: CheckResult['status'], detail: string, fix?: string): CheckResult {
  return { name, status, detail, ...(fix ? { fix } : {}) };
}

export function formatCheck(c: CheckResult): string {
  const tag = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', skip: 'skip' }[c.status];
  return `${tag}  ${c.name}: ${c.detail}${c.fix ? `\n      fix: ${c.fix}` : ''}\n`;
}
