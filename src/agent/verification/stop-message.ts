import type { GateResult } from '../events.js';

/**
 * The user message that sends the model back when Stop gates fail (CONTRACT §9): each failed gate by
 * name with what to do. Empty when every gate passed.
 */
export function stopMessage(gates: readonly GateResult[], testCommand: string | undefined): string {
  const failed = gates.filter((g) => !g.passed);
  if (failed.length === 0) return '';
  const items = failed.map((g) => `- ${g.name}: ${g.detail.replace(/\n/g, '\n  ')}`);
  const rerun = testCommand ? `, run \`${testCommand}\` again on the final files` : '';
  return [
    'You are not done yet: the harness checked the work itself and these gates failed:',
    ...items,
    `Fix each one${rerun}, then finish. The gates are checked again when you stop.`,
  ].join('\n');
}
