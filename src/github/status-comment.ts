/**
 * The one status comment per run, rendered from its state; edited in place as the run moves on.
 */
import type { GateResult, TodoItem } from '../agent/events.js';
import type { CiEvidence } from '../agent/evidence/types.js';
import { ciLine } from '../agent/evidence/ci-md.js';
import { wipFetchCommand } from '../workspace/push.js';

export type Phase = 'queued' | 'preparing' | 'working' | 'verifying' | 'publishing' | 'done' | 'failed' | 'cancelled' | 'aborted';

export interface StatusState {
  runId: string;
  phase: Phase;
  requester: string;
  mode: 'fix' | 'plan' | 'follow-up';
  todos?: TodoItem[];
  turns?: number;
  maxTurns?: number;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
  budgetUsd?: number;
  verdict?: string;
  reason?: string;
  prUrl?: string;
  branch?: string;
  branchUrl?: string;
  /** Where unverified work was kept (refs/proofpr/wip/<run-id>): no branch, so no workflow ran on it. */
  wipRef?: string;
  failedGates?: GateResult[];
  /** The phase that crashed, for phase 'failed'. */
  failedPhase?: string;
  error?: string;
  /** The run's sandbox, known at its start, and why there is none. */
  sandbox?: string;
  sandboxReason?: string;
  /** What the repository's CI said about the pushed commit, once watched. */
  ci?: CiEvidence;
  /** One paragraph under the title on every edit: why this run exists when nobody commented (a moved base). */
  note?: string;
}

const ICON: Record<Phase, string> = {
  queued: '⏳',
  preparing: '🔧',
  working: '🤖',
  verifying: '🧪',
  publishing: '📤',
  done: '✅',
  failed: '❌',
  cancelled: '🛑',
  aborted: '⚠️',
};

const TODO_MARK: Record<TodoItem['status'], string> = { completed: '[x]', in_progress: '[ ] ⏵', pending: '[ ]' };

export function statusMarker(runId: string): string {
  return `<!-- proofpr:run=${runId} -->`;
}

function usageLine(s: StatusState): string | undefined {
  if (s.turns === undefined && s.costUsd === undefined) return undefined;
  const parts: string[] = [];
  if (s.turns !== undefined) parts.push(`turns ${s.turns}${s.maxTurns ? `/${s.maxTurns}` : ''}`);
  if (s.inputTokens !== undefined || s.outputTokens !== undefined)
    parts.push(`tokens ${s.inputTokens ?? 0} in / ${s.outputTokens ?? 0} out`);
  if (s.costUsd !== undefined) parts.push(`$${s.costUsd.toFixed(2)}${s.budgetUsd !== undefined ? ` of $${s.budgetUsd.toFixed(2)}` : ''}`);
  return parts.join(' · ');
}

export function renderStatusComment(s: StatusState): string {
  const title = s.mode === 'plan' ? 'plan' : s.mode === 'follow-up' ? 'follow-up' : 'fix';
  const warn = s.phase === 'done' && s.verdict !== undefined && s.verdict !== 'verified' && s.verdict !== 'plan posted';
  const out = [
    statusMarker(s.runId),
    `${warn ? '⚠️' : ICON[s.phase]} **proofpr ${title}** — ${s.phase}  (requested by @${s.requester}, run \`${s.runId}\`)`,
  ];
  if (s.note) out.push('', s.note);
  if (s.sandbox === 'none') out.push('', `⚠️ Sandbox: none: ${s.sandboxReason ?? 'not available'}`);
  else if (s.sandbox) out.push('', `Sandbox: ${s.sandbox}`);
  const usage = usageLine(s);
  if (usage) out.push('', usage);
  if (s.todos && s.todos.length > 0) out.push('', ...s.todos.map((t) => `- ${TODO_MARK[t.status]} ${t.content.replace(/\n/g, ' ')}`));
  if (s.verdict) out.push('', `**Verdict: ${s.verdict}**${s.reason ? ` — ${s.reason}` : ''}`);
  if (s.prUrl) out.push('', `Pull request: ${s.prUrl}`);
  if (s.ci) out.push('', `${ciLine(s.ci)}${s.ci.cause ? ` — ${s.ci.cause}` : ''}`);
  if (s.failedGates && s.failedGates.length > 0) out.push('', 'Failed gates:', ...s.failedGates.map((g) => `- \`${g.name}\`: ${g.detail}`));
  if (s.branch && !s.prUrl) out.push('', `Work in progress kept on branch [\`${s.branch}\`](${s.branchUrl ?? '#'}).`);
  if (s.wipRef)
    out.push('', `Work in progress kept at \`${s.wipRef}\` (no branch, so no workflow ran on it): \`${wipFetchCommand(s.wipRef)}\``);
  if (s.phase === 'failed') out.push('', `Failed while ${s.failedPhase ?? 'working'}${s.error ? `: ${s.error}` : ''}.`);
  return out.join('\n');
}
