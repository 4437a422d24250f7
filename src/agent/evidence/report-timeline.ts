/** The report's timeline: one block per model turn with what happened after it, in ledger order. */
import type { RunEvent } from '../events.js';
import { HOOK_BLOCKED } from './denials.js';
import { esc } from './html.js';
import { executed, formatCost, formatDuration, formatInt, oneLine, shortHash, truncate } from './text.js';
import { describeInput } from '../../tools/describe-input.js';

type Of<T extends RunEvent['type']> = Extract<RunEvent, { type: T }>;

interface Call {
  call: Of<'tool_call'>;
  result?: Of<'tool_result'>;
  permission?: Of<'permission'>;
  hookBlock?: Of<'hook'>;
}
type Item = { html: string } | { call: Call } | { gates: Of<'gate'>[]; sentBack: boolean };
interface Group {
  assistant?: Of<'assistant'>;
  estimatedTokens?: number;
  items: Item[];
}

const TEXT_MAX = 2000;
const PREVIEW_MAX = 4000;

function row(cls: string, kind: string, body: string): Item {
  return { html: `<li class="ev ${cls}" data-kind="${kind}"><div class="row">${body}</div></li>` };
}

function isDenied(c: Call): boolean {
  return c.permission?.behavior === 'deny' || c.result?.errorKind === HOOK_BLOCKED || /denied/i.test(c.result?.errorKind ?? '');
}

function renderCall(c: Call): string {
  const denied = isDenied(c);
  const failed = !denied && c.result?.isError === true;
  const cls = denied ? 'denied' : failed ? 'bad' : 'good';
  const input = truncate(oneLine(describeInput(c.call.input)), 160);
  const tags = [
    denied ? '<span class="tag deny">denied</span>' : '',
    failed ? `<span class="tag err">${esc(c.result?.errorKind ?? 'error')}</span>` : '',
    c.result ? `<span class="muted">${esc(formatDuration(c.result.durationMs))}</span>` : '<span class="muted">no result</span>',
  ].join(' ');
  const why: string[] = [];
  if (c.permission?.behavior === 'deny') why.push(`rule ${c.permission.rule}: ${c.permission.reason}`);
  if (c.hookBlock) why.push(`${c.hookBlock.event} hook ${c.hookBlock.name}: ${c.hookBlock.message ?? 'blocked'}`);
  const whyHtml = why.length > 0 ? `<div class="why">${esc(truncate(why.join(' · '), 400))}</div>` : '';
  const preview = c.result?.preview ?? '';
  const out = c.result?.outputPath ? ` <span class="muted">full output: ${esc(c.result.outputPath)}</span>` : '';
  const details = preview
    ? `<details><summary>result (${formatInt(preview.length)} chars)</summary><pre>${esc(truncate(preview, PREVIEW_MAX))}</pre></details>`
    : '';
  return (
    `<li class="ev call ${cls}" data-kind="tool" data-tool="${esc(c.call.name)}"><div class="row"><span class="tool">${esc(c.call.name)}</span>` +
    `<code class="in">${esc(input)}</code> ${tags}</div>${whyHtml}${details}${out}</li>`
  );
}

function renderGates(gates: Of<'gate'>[], sentBack: boolean): string {
  const failed = gates.filter((g) => !g.passed);
  const final = gates.some((g) => g.final);
  const title =
    failed.length > 0
      ? `${final ? 'Final gates' : 'Stop gates'}: ${failed.length} failed${sentBack ? ', model sent back' : ''}`
      : `${final ? 'Final gates' : 'Stop gates'}: all passed`;
  const list = gates
    .map(
      (g) =>
        `<li>${g.advisory ? '⚠ advisory' : g.passed ? '✓' : '✗'} <b>${esc(g.name)}</b> <span>${esc(truncate(g.detail, 400))}</span></li>`,
    )
    .join('');
  return `<li class="ev ${failed.length > 0 ? 'bad' : 'good'}" data-kind="gate"><div class="row"><b>${esc(title)}</b></div><ul class="plain">${list}</ul></li>`;
}

function simpleItem(ev: RunEvent): Item | undefined {
  switch (ev.type) {
    case 'run_start':
      return row(
        'info',
        'start',
        `<b>Run started</b> <span>${esc(ev.task.title ?? ev.task.kind)}</span> <span class="muted">model ${esc(ev.model)}${ev.sandbox ? `, sandbox ${esc(ev.sandbox)}` : ''}</span>`,
      );
    case 'test_run': {
      const r = ev.run;
      const ex = executed(r.counts);
      const counts = r.counts && ex !== null ? `${ex}/${r.counts.total} executed, ${r.counts.failed} failed` : 'counts unknown';
      const ok = r.exitCode === 0 && ex !== null && ex > 0;
      return row(
        ok ? 'good' : 'warn',
        'test',
        `<b>Test run</b> <code>${esc(truncate(r.command, 160))}</code> <span>exit ${esc(r.exitCode ?? 'killed')}, ${esc(counts)}</span> <span class="muted">tree ${esc(shortHash(r.treeHash))} · ${esc(r.by)}</span>`,
      );
    }
    case 'compaction':
      return row(
        ev.ok ? 'info' : 'bad',
        'compaction',
        `<b>Compaction (${esc(ev.kind)})</b> <span>${formatInt(ev.beforeTokens)} → ${formatInt(ev.afterTokens)} tokens</span>${ev.ok ? '' : ' <span class="tag err">failed</span>'}${ev.detail ? ` <span class="muted">${esc(truncate(ev.detail, 300))}</span>` : ''}`,
      );
    case 'retry':
      return row('warn', 'retry', `<b>Retry</b> <span>turn ${ev.turn}, attempt ${ev.attempt}: ${esc(truncate(ev.reason, 300))}</span>`);
    case 'error':
      return row('bad', 'error', `<b>Error (${esc(ev.kind)})</b> <span>${esc(truncate(ev.message, 600))}</span>`);
    case 'notice':
      return row('info', 'notice', `<span>${esc(truncate(ev.message, 600))}</span>`);
    case 'file_changed':
      return row('', 'file', `<span class="muted">changed</span> <code>${esc(ev.path)}</code>`);
    case 'todo': {
      const done = ev.todos.filter((t) => t.status === 'completed').length;
      const list = ev.todos
        .map(
          (t) => `<li>[${t.status === 'completed' ? 'x' : t.status === 'in_progress' ? '~' : ' '}] ${esc(truncate(t.content, 200))}</li>`,
        )
        .join('');
      return {
        html: `<li class="ev" data-kind="todo"><details><summary>Plan: ${done}/${ev.todos.length} done</summary><ul class="plain">${list}</ul></details></li>`,
      };
    }
    case 'hook':
      if (ev.outcome === 'continue') return undefined;
      return row(
        ev.outcome === 'context' ? 'info' : ev.outcome === 'block' ? 'warn' : 'bad',
        'hook',
        `<b>${esc(ev.event)} hook ${esc(ev.name)}: ${esc(ev.outcome)}</b>${ev.message ? ` <span>${esc(truncate(ev.message, 600))}</span>` : ''}`,
      );
    case 'permission':
      return ev.behavior === 'deny'
        ? row(
            'denied',
            'permission',
            `<span class="tag deny">denied</span> <b>${esc(ev.tool)}</b> <code>${esc(truncate(ev.input, 160))}</code> <span class="why">rule ${esc(ev.rule)}: ${esc(truncate(ev.reason, 300))}</span>`,
          )
        : undefined;
    case 'run_end':
      return row(
        ev.verdict === 'verified' ? 'good' : 'bad',
        'end',
        `<b>Run ended: ${esc(ev.verdict)}</b> <span>${esc(truncate(ev.reason, 600))}</span>`,
      );
    default:
      return undefined;
  }
}

/** The latest tool call still waiting for its result (with that tool name, when given). */
function openCall(open: Map<string, Call>, tool?: string): Call | undefined {
  return [...open.values()].reverse().find((c) => tool === undefined || c.call.name === tool);
}

function groupEvents(events: readonly RunEvent[]): Group[] {
  const groups: Group[] = [{ items: [] }];
  const open = new Map<string, Call>();
  let pendingEstimate: number | undefined;
  let gateRun: Of<'gate'>[] | undefined;
  const gateItems: { sentBack: boolean }[] = [];
  for (const ev of events) {
    let cur = groups[groups.length - 1] as Group;
    if (ev.type !== 'gate') gateRun = undefined;
    if (ev.type === 'request') {
      pendingEstimate = ev.estimatedTokens;
    } else if (ev.type === 'assistant') {
      for (const g of gateItems) g.sentBack = true;
      gateItems.length = 0;
      cur = { assistant: ev, estimatedTokens: pendingEstimate, items: [] };
      groups.push(cur);
      pendingEstimate = undefined;
    } else if (ev.type === 'tool_call') {
      const c: Call = { call: ev };
      open.set(ev.id, c);
      cur.items.push({ call: c });
    } else if (ev.type === 'tool_result') {
      const c = open.get(ev.id);
      if (c) c.result = ev;
      else cur.items.push({ call: { call: { type: 'tool_call', ts: ev.ts, id: ev.id, name: ev.name, input: '' }, result: ev } });
      open.delete(ev.id);
    } else if (ev.type === 'gate') {
      if (!gateRun) {
        gateRun = [];
        const item = { gates: gateRun, sentBack: false };
        gateItems.push(item);
        cur.items.push(item);
      }
      gateRun.push(ev);
    } else if (ev.type === 'permission' && openCall(open, ev.tool)) {
      (openCall(open, ev.tool) as Call).permission = ev;
    } else if (ev.type === 'hook' && ev.event === 'PreToolUse' && ev.outcome === 'block' && openCall(open)) {
      (openCall(open) as Call).hookBlock = ev;
    } else {
      const item = simpleItem(ev);
      if (item) cur.items.push(item);
    }
  }
  return groups.filter((g) => g.assistant || g.items.length > 0);
}

function renderGroup(g: Group): string {
  const items = g.items
    .map((it) => ('call' in it ? renderCall(it.call) : 'gates' in it ? renderGates(it.gates, it.sentBack) : it.html))
    .join('');
  if (!g.assistant) return `<li class="turn" data-turn="0"><div class="turn-head"><b>Start</b></div><ul class="items">${items}</ul></li>`;
  const a = g.assistant;
  const text = a.content
    .map((b) => {
      if (b.type === 'text' && b.text.trim()) return `<div class="say">${esc(truncate(b.text, TEXT_MAX))}</div>`;
      if (b.type === 'thinking') return `<details><summary>thinking</summary><pre>${esc(truncate(b.thinking, TEXT_MAX))}</pre></details>`;
      return '';
    })
    .join('');
  const u = a.usage;
  const est = g.estimatedTokens !== undefined ? ` · est. ${formatInt(g.estimatedTokens)}` : '';
  return (
    `<li class="turn" id="turn-${a.turn}" data-turn="${a.turn}"><div class="turn-head"><b>Turn ${a.turn}</b>` +
    `<span class="muted">stop: ${esc(a.stopReason)}</span><span class="muted">in ${formatInt(u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens)} · out ${formatInt(u.outputTokens)}${est} · ${formatCost(a.costUsd)}</span></div>` +
    `${text}<ul class="items">${items}</ul></li>`
  );
}

/** The <ol> of turns for #timeline; every string from the events is escaped. */
export function renderTimeline(events: readonly RunEvent[]): string {
  const groups = groupEvents(events);
  if (groups.length === 0) return '<p class="muted">The transcript holds no events.</p>';
  return `<ol class="timeline">${groups.map(renderGroup).join('')}</ol>`;
}
