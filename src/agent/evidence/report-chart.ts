/** Tokens and cost per turn as a small inline SVG (stacked bars for tokens, a line for cost). */
import type { RunEvent } from '../events.js';
import { esc } from './html.js';
import { formatCost, formatInt } from './text.js';

interface TurnUsage {
  turn: number;
  cached: number;
  input: number;
  output: number;
  cost: number;
}

const W = 600;
const H = 120;
const COLORS = { cached: '#8c959f', input: '#0969da', output: '#bf8700', cost: '#cf222e' };

export function turnUsages(events: readonly RunEvent[]): TurnUsage[] {
  return events.flatMap((ev) =>
    ev.type === 'assistant'
      ? [
          {
            turn: ev.turn,
            cached: ev.usage.cacheReadTokens,
            input: ev.usage.inputTokens + ev.usage.cacheWriteTokens,
            output: ev.usage.outputTokens,
            cost: ev.costUsd,
          },
        ]
      : [],
  );
}

function bars(turns: TurnUsage[]): string {
  const maxTokens = Math.max(1, ...turns.map((t) => t.cached + t.input + t.output));
  const maxCost = Math.max(1e-9, ...turns.map((t) => t.cost));
  const slot = W / turns.length;
  const bw = Math.max(1, slot * 0.75);
  const parts: string[] = [];
  const costPoints: string[] = [];
  turns.forEach((t, i) => {
    const x = i * slot + (slot - bw) / 2;
    let y = H;
    const seg = (v: number, color: string) => {
      const h = (v / maxTokens) * (H - 4);
      if (h <= 0) return;
      y -= h;
      parts.push(`<rect x="${x.toFixed(2)}" y="${y.toFixed(2)}" width="${bw.toFixed(2)}" height="${h.toFixed(2)}" fill="${color}"/>`);
    };
    parts.push(
      `<g><title>${esc(`Turn ${t.turn}: ${formatInt(t.input)} input, ${formatInt(t.cached)} cache read, ${formatInt(t.output)} output tokens, ${formatCost(t.cost)}`)}</title>`,
    );
    seg(t.cached, COLORS.cached);
    seg(t.input, COLORS.input);
    seg(t.output, COLORS.output);
    parts.push('</g>');
    costPoints.push(`${(i * slot + slot / 2).toFixed(2)},${(H - (t.cost / maxCost) * (H - 4)).toFixed(2)}`);
  });
  const line = `<polyline points="${costPoints.join(' ')}" fill="none" stroke="${COLORS.cost}" stroke-width="2" vector-effect="non-scaling-stroke"/>`;
  return parts.join('') + line;
}

/** The chart (svg#usage-chart), a legend and a per-turn table; a note when no turn was recorded. */
export function renderUsageChart(events: readonly RunEvent[]): string {
  const turns = turnUsages(events);
  if (turns.length === 0) return '<p class="muted" id="usage-chart" data-testid="usage-chart">No model turn was recorded.</p>';
  const svg =
    `<svg id="usage-chart" data-testid="usage-chart" class="chart" viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" role="img" aria-label="Tokens and cost per turn">` +
    `${bars(turns)}</svg>`;
  const sw = (c: string, label: string) => `<span><span class="sw" style="background:${c}"></span>${label}</span>`;
  const legend = `<div class="legend">${sw(COLORS.cached, 'cache read')}${sw(COLORS.input, 'input + cache write')}${sw(COLORS.output, 'output')}${sw(COLORS.cost, 'cost (line)')}</div>`;
  const rows = turns
    .map(
      (t) =>
        `<tr><td class="num">${t.turn}</td><td class="num">${formatInt(t.input)}</td><td class="num">${formatInt(t.cached)}</td><td class="num">${formatInt(t.output)}</td><td class="num">${formatCost(t.cost)}</td></tr>`,
    )
    .join('');
  const table =
    `<details><summary>per-turn numbers</summary><div class="table-wrap"><table><thead><tr><th>Turn</th><th>Input</th><th>Cache read</th><th>Output</th><th>Cost</th></tr></thead>` +
    `<tbody>${rows}</tbody></table></div></details>`;
  return svg + legend + table;
}
