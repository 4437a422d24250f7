import { appendFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

/**
 * Appends step outputs to $GITHUB_OUTPUT in the runner's heredoc form (`name<<DELIM`, value, `DELIM`),
 * with a random delimiter that the value cannot contain. Without a file (outside Actions) nothing is written.
 */
export function writeOutputs(file: string | undefined, outputs: Record<string, string>): void {
  if (!file) return;
  let text = '';
  for (const [name, value] of Object.entries(outputs)) {
    let delim = `proofpr_${randomBytes(8).toString('hex')}`;
    while (value.includes(delim)) delim = `proofpr_${randomBytes(8).toString('hex')}`;
    text += `${name}<<${delim}\n${value}\n${delim}\n`;
  }
  appendFileSync(file, text);
}
