/** The PR body's "Second look" section: the findings by severity, said to be advisory unless they gate. */
import { mdCode, mdText } from './markdown.js';
import type { Evidence } from './types.js';

const MARK = { high: '🔴 high', medium: '🟠 medium', low: '🟡 low' } as const;

export function secondLookSection(ev: Evidence): string[] {
  const look = ev.secondLook;
  if (!look) return [];
  const gate = ev.gates.find((g) => g.name === 'second-look');
  const role = gate
    ? gate.advisory
      ? '_Gate `second-look` (block_on: high): advisory: the findings are below high and do not block._'
      : gate.passed
        ? '_Gate `second-look` (block_on: high): passed._'
        : '_Gate `second-look` (block_on: high): failed on the high-severity findings._'
    : '_Advisory: a fresh-context read-only review of the issue, the diff and the final test output; not a gate._';
  if (look.status !== 'done')
    return [
      '### Second look',
      '',
      `_The second look ${look.status === 'skipped' ? 'did not run' : 'gave no findings'}: ${mdText(look.reason ?? look.status, 300)}._`,
      '',
      role,
    ];
  if (look.findings.length === 0) return ['### Second look', '', '_No counterexample or untested case found._', '', role];
  const items = look.findings.map((f) => `- **${MARK[f.severity]}**${f.file ? ` ${mdCode(f.file, 160)}` : ''}: ${mdText(f.text, 500)}`);
  return ['### Second look', '', ...items, '', role];
}
