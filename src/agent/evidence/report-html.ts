/**
 * report.html: one self-contained page for a run (no network: inline CSS, no scripts, no external
 * resources, a strict CSP). Everything that came from events or evidence is HTML-escaped.
 */
import type { RunEvent } from '../events.js';
import { esc } from './html.js';
import { REPORT_CSS } from './report-css.js';
import { renderUsageChart } from './report-chart.js';
import { renderDiff } from './report-diff.js';
import { renderTimeline } from './report-timeline.js';
import { executed, formatCost, formatDuration, formatInt, shortHash, truncate } from './text.js';
import type { Evidence } from './types.js';

export interface ReportOptions {
  diff?: string;
}

export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'";

const LABEL: Record<Evidence['verdict'], string> = { verified: 'Verified', unverified: 'Unverified', aborted: 'Aborted', error: 'Error' };

function taskText(ev: Evidence): string {
  const t = ev.task;
  const head = t.kind === 'issue' && t.issue !== undefined ? `Issue #${t.issue}` : t.kind === 'sweep' ? `Sweep ${t.sweep ?? ''}` : 'Prompt';
  return t.title ? `${head}: ${t.title}` : head;
}

function verdictSection(ev: Evidence): string {
  const ms = Date.parse(ev.endedAt) - Date.parse(ev.startedAt);
  const facts: [string, string | undefined][] = [
    ['Task', taskText(ev)],
    ['Repository', ev.repo.fullName ?? ev.repo.path],
    ['Branch', ev.repo.branch],
    ['Base', ev.repo.baseSha ? shortHash(ev.repo.baseSha) : undefined],
    ['Head', ev.repo.headSha ? shortHash(ev.repo.headSha) : undefined],
    ['Pull request', ev.pr ? `#${ev.pr.number} ${ev.pr.url}` : undefined],
    ['Model', ev.model],
    ['Sandbox', ev.sandbox],
    ['Started', ev.startedAt],
    ['Duration', Number.isFinite(ms) ? formatDuration(ms) : undefined],
    ['Run id', ev.runId],
  ];
  const dl = facts
    .filter((f): f is [string, string] => f[1] !== undefined && f[1] !== '')
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`)
    .join('');
  return (
    `<header id="verdict" data-testid="verdict" class="verdict v-${esc(ev.verdict)}">` +
    `<div class="label">${esc(LABEL[ev.verdict] ?? ev.verdict)}</div><p class="reason">${esc(ev.reason)}</p><dl class="facts">${dl}</dl></header>`
  );
}

function gatesSection(ev: Evidence): string {
  const items = ev.gates
    .map(
      (g) =>
        `<li class="gate ${g.advisory ? 'advisory' : g.passed ? 'pass' : 'fail'}" data-gate="${esc(g.name)}"><span class="mark">${g.advisory ? '⚠ advisory' : g.passed ? '✓' : '✗'}</span>` +
        `<span class="name">${esc(g.name)}</span><span class="detail">${esc(g.detail)}</span></li>`,
    )
    .join('');
  const list = items ? `<ul class="plain">${items}</ul>` : '<p class="muted">No gate evaluation was recorded: nothing was checked.</p>';
  const extra: string[] = [];
  if (ev.finalTreeHash) extra.push(`accepted tree <code>${esc(shortHash(ev.finalTreeHash))}</code>`);
  if (ev.lastEditAt) extra.push(`last edit ${esc(ev.lastEditAt)}`);
  if (ev.redGreen) extra.push(`red→green: ${esc(ev.redGreen.detail)}`);
  for (const h of ev.hookErrors ?? []) extra.push(`hook error: ${esc(truncate(h, 300))}`);
  const note = extra.length > 0 ? `<p class="muted">${extra.join(' · ')}</p>` : '';
  return `<section id="gates" data-testid="gates"><h2>Gates</h2>${list}${note}</section>`;
}

function testsSection(ev: Evidence): string {
  if (ev.testRuns.length === 0)
    return '<section id="tests" data-testid="tests"><h2>Test runs</h2><p class="muted">No test run was recorded.</p></section>';
  const rows = ev.testRuns
    .map((r, i) => {
      const ex = executed(r.counts);
      const c = r.counts;
      const bad = r.exitCode !== 0 || ex === null || (c !== null && c.failed > 0);
      const cells = [
        ['#', `${i + 1}`, 'num'],
        ['Command', `<code>${esc(truncate(r.command, 200))}</code>`],
        ['Exit', esc(r.exitCode ?? 'killed'), 'num'],
        ['Executed', c && ex !== null ? `${ex}/${c.total}` : 'unknown', 'num'],
        ['Failed', c ? String(c.failed) : '–', 'num'],
        ['Skipped', c ? String(c.skipped) : '–', 'num'],
        ['Counts from', `${esc(r.source)}${r.runner ? ` (${esc(r.runner)})` : ''}`],
        ['Tree', `<code title="${esc(r.treeHash)}">${esc(shortHash(r.treeHash))}</code>`],
        ['By', esc(r.by)],
        ['Started', esc(r.startedAt)],
      ].map(([label, html, cls]) => `<td data-label="${label}"${cls ? ` class="${cls}"` : ''}>${html}</td>`);
      return `<tr id="test-${i + 1}"${bad ? ' class="fail"' : ''}>${cells.join('')}</tr>`;
    })
    .join('');
  const head = ['#', 'Command', 'Exit', 'Executed', 'Failed', 'Skipped', 'Counts from', 'Tree', 'By', 'Started']
    .map((h) => `<th>${h}</th>`)
    .join('');
  return `<section id="tests" data-testid="tests"><h2>Test runs</h2><div class="table-wrap"><table class="cards"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div></section>`;
}

function deniedSection(ev: Evidence): string {
  if (ev.denied.length === 0) return '';
  const rows = ev.denied
    .map(
      (d) =>
        `<tr class="fail"><td data-label="Tool">${esc(d.tool)}</td><td data-label="Input"><code>${esc(truncate(d.input, 300))}</code></td>` +
        `<td data-label="Rule"><code>${esc(d.rule)}</code></td><td data-label="Reason">${esc(truncate(d.reason, 400))}</td></tr>`,
    )
    .join('');
  return `<section id="denied" data-testid="denied"><h2>Denied tool calls (${ev.denied.length})</h2><div class="table-wrap"><table class="cards"><thead><tr><th>Tool</th><th>Input</th><th>Rule</th><th>Reason</th></tr></thead><tbody>${rows}</tbody></table></div></section>`;
}

function filesSection(ev: Evidence, diff: string | undefined): string {
  const files = ev.filesChanged
    .map((f) => `<li><code>${esc(f.path)}</code> <span class="tag ok">+${f.added}</span> <span class="tag err">−${f.removed}</span></li>`)
    .join('');
  const list = files ? `<ul class="plain">${files}</ul>` : '<p class="muted">No file changed.</p>';
  return `<section id="diff" data-testid="diff"><h2>Changes (${ev.filesChanged.length} files)</h2>${list}${renderDiff(diff)}</section>`;
}

function usageSection(ev: Evidence, events: readonly RunEvent[]): string {
  const u = ev.usage;
  const tools = Object.keys(ev.toolCalls)
    .sort()
    .map((k) => `${esc(k)} ${ev.toolCalls[k]}`)
    .join(' · ');
  const line =
    `${u.turns} turns · ${formatInt(u.inputTokens)} input + ${formatInt(u.outputTokens)} output tokens · cache read ${formatInt(u.cacheReadTokens)}, ` +
    `write ${formatInt(u.cacheWriteTokens)} · ${formatCost(u.costUsd)} · ${u.compactions} compactions`;
  return `<section id="usage" data-testid="usage"><h2>Tokens and cost</h2><p>${line}</p>${tools ? `<p class="muted">Tool calls: ${tools}</p>` : ''}${renderUsageChart(events)}</section>`;
}

/** Renders the whole report page. Pure: the same evidence, events and diff give the same bytes. */
export function renderReportHtml(evidence: Evidence, events: readonly RunEvent[], opts: ReportOptions = {}): string {
  const ev = evidence;
  const title = `proofpr ${LABEL[ev.verdict] ?? ev.verdict}: ${taskText(ev)}`;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${esc(truncate(title, 140))}</title>`,
    `<style>${REPORT_CSS}</style></head><body><main>`,
    `<h1>${esc(truncate(taskText(ev), 200))}</h1>`,
    verdictSection(ev),
    gatesSection(ev),
    testsSection(ev),
    deniedSection(ev),
    `<section id="timeline-section"><h2>Timeline</h2><div id="timeline" data-testid="timeline">${renderTimeline(events)}</div></section>`,
    usageSection(ev, events),
    filesSection(ev, opts.diff),
    `<footer>Rendered by proofpr from evidence.json and transcript.jsonl. The verdict is the harness's, from what it observed; not the model's.</footer>`,
    '</main></body></html>',
    '',
  ].join('\n');
}
