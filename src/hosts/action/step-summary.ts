import { appendFileSync } from 'node:fs';

/** Appends Markdown to $GITHUB_STEP_SUMMARY (the job's summary page); a no-op outside Actions. */
export function appendStepSummary(file: string | undefined, markdown: string): void {
  if (!file || markdown.trim() === '') return;
  appendFileSync(file, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
}
