/** The one spelling of a removed secret, in every artifact (transcript, evidence, summary, report, comments, logs). */
export const REDACTED = '[REDACTED]';

/**
 * What a masked file holds in the agent's world: the sandbox's bind over it and the agent's private git
 * (its sanitized tree) show the same bytes, so `git status` there sees no change. One line that names the
 * file and the way to opt it in, so a test that reads it fails with a message a maintainer can act on.
 */
export function maskedContent(rel: string): string {
  return `proofpr: ${rel} is masked (its content matches a secret rule); permissions.readable in .github/proofpr.yml opts it in\n`;
}
