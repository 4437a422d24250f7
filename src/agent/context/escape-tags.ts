/** Tags the harness uses to fence data and its own notes; untrusted text must not open or close them. */
const HARNESS_TAGS =
  /<(\/?)(issue|title|trigger-instructions|instructions|system-reminder|harness-state|compaction-summary|memory|diff|test-output|findings|project-context|edited-files|session-notes|loaded-skills)(?=[\s>/])/gi;

/** Neutralises harness tags inside untrusted text so it cannot break out of its fence. */
export function escapeTags(text: string): string {
  return text.replace(HARNESS_TAGS, '&lt;$1$2');
}
