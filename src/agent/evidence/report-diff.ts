/** The diff as escaped, coloured lines in one <pre> (the only place the page may scroll sideways). */
import { esc } from './html.js';
import { formatInt } from './text.js';

const MAX_CHARS = 400_000;

function lineClass(line: string): string {
  if (line.startsWith('diff --git') || line.startsWith('+++ ') || line.startsWith('--- ')) return 'file';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return '';
}

export function renderDiff(diff: string | undefined): string {
  if (!diff || diff.trim() === '') return '<p class="muted">No diff was recorded for this run.</p>';
  const cut = diff.length > MAX_CHARS;
  const text = cut ? diff.slice(0, MAX_CHARS) : diff;
  const lines = text.replace(/\n$/, '').split('\n');
  const body = lines
    .map((l) => {
      const cls = lineClass(l);
      return cls ? `<span class="${cls}">${esc(l)}</span>` : esc(l);
    })
    .join('\n');
  const note = cut ? `<p class="muted">Diff cut at ${formatInt(MAX_CHARS)} of ${formatInt(diff.length)} characters.</p>` : '';
  return `<pre class="diff">${body}</pre>${note}`;
}
