/**
 * summary.md: the PR body / job summary, a pure and deterministic function of the evidence.
 * Untrusted strings (commands, paths, details) are escaped and capped.
 */
import type { ChangedExpectation, Verdict } from '../events.js';
import { mdCode, mdText, mdTextWithCode } from './markdown.js';
import { executed, formatCost, formatInt, shortHash } from './text.js';
import type { Evidence } from './types.js';
import { secondLookSection } from './second-look-md.js';
import { untestedSection } from './untested-md.js';
import { withoutHostPaths, type HostPlace } from './host-paths.js';

export interface SummaryOptions {
  reportUrl?: string;
  sweep?: { name: string; schedule?: string };
  /** The run's places on the host (host-paths.ts): every string of the evidence is rendered with none of them. */
  places?: readonly HostPlace[];
}

const HEADLINE: Record<Verdict, string> = {
  verified: '✅ proofpr: verified',
  unverified: '⚠️ proofpr: unverified',
  aborted: '⛔ proofpr: aborted',
  error: '💥 proofpr: error',
};
const MAX_TEST_RUNS = 20;
const MAX_DENIED = 30;
const MAX_FILES = 100;

function taskLine(ev: Evidence): string {
  const title = ev.task.title ? `: ${mdText(ev.task.title, 200)}` : '';
  if (ev.task.kind === 'issue' && ev.task.issue !== undefined) return `**Task:** issue #${ev.task.issue}${title}`;
  if (ev.task.kind === 'sweep') return `**Task:** sweep ${mdText(ev.task.sweep ?? '', 80)}${title}`;
  return `**Task:** prompt${title}`;
}

function factsBlock(ev: Evidence, opts: SummaryOptions): string[] {
  const lines = [taskLine(ev)];
  const head = ev.repo.headSha ? `, head ${mdCode(ev.repo.headSha.slice(0, 12), 12, false)}` : '';
  lines.push(`**Branch:** ${mdCode(ev.repo.branch, 200, false)} (base ${mdCode(ev.repo.baseSha.slice(0, 12), 12, false)}${head})`);
  if (opts.sweep) {
    const sched = opts.sweep.schedule ? ` (schedule ${mdCode(opts.sweep.schedule, 60, false)})` : '';
    lines.push(`**Sweep:** ${mdText(opts.sweep.name, 80)}${sched}`);
  }
  if (ev.pr) lines.push(`**Pull request:** #${ev.pr.number}`);
  lines.push(...commandLines(ev));
  if (ev.fix) lines.push(fixLine(ev.fix));
  if (opts.reportUrl) lines.push(`**Report:** [report.html](${encodeURI(opts.reportUrl).replace(/[()]/g, (c) => encodeURIComponent(c))})`);
  return [lines.join('  \n')];
}

/** Which test command (configured or detected, and why), the base's result, and the sandbox: facts a reader needs first. */
function commandLines(ev: Evidence): string[] {
  const lines: string[] = [];
  if (ev.test) lines.push(`**Tests:** ${mdCode(ev.test.command, 200, false)} (${ev.test.source}: ${mdText(ev.test.why, 300)})`);
  if (ev.setup)
    lines.push(
      `**Setup:** ${ev.setup.command ? `${mdCode(ev.setup.command, 200, false)} (${ev.setup.source ?? 'configured'}: ${mdText(ev.setup.why, 300)})` : mdText(ev.setup.why, 300)}`,
    );
  const b = ev.baseline;
  if (b) {
    const ex = executed(b.counts);
    const counts = b.counts && ex !== null ? `${ex} executed, ${b.counts.failed} failed` : 'counts unknown';
    const red = b.exitCode !== 0 || (b.counts?.failed ?? 0) > 0;
    lines.push(
      `**Base:** ${red ? '🔴 red' : '🟢 green'} before any change (exit ${b.exitCode === null ? 'killed' : b.exitCode}, ${counts})`,
    );
  }
  if (ev.sandbox)
    lines.push(
      ev.sandbox === 'bwrap'
        ? '**Sandbox:** bwrap (no network, read-only outside the worktree)'
        : `**Sandbox:** ⚠️ none: ${mdText(ev.sandboxReason ?? 'not available', 400)}`,
    );
  return lines;
}

function gatesTable(ev: Evidence): string[] {
  if (ev.gates.length === 0) return ['### Gates', '', '_No gate evaluation was recorded._'];
  const mark = (g: Evidence['gates'][number]): string => (g.advisory ? '⚠️ advisory' : g.passed ? '✅' : '❌');
  const rows = ev.gates.map((g) => `| ${mark(g)} | ${mdText(g.name, 60)} | ${mdTextWithCode(g.detail, 300)} |`);
  return ['### Gates', '', '| | Gate | Detail |', '| --- | --- | --- |', ...rows];
}

function testRunsTable(ev: Evidence): string[] {
  if (ev.testRuns.length === 0) return ['### Test runs', '', '_No test run was recorded._'];
  const shown = ev.testRuns.slice(-MAX_TEST_RUNS);
  const first = ev.testRuns.length - shown.length;
  const rows = shown.map((r, i) => {
    const ex = executed(r.counts);
    const counts =
      r.counts && ex !== null ? `${ex} / ${r.counts.total} (${r.counts.failed} failed, ${r.counts.skipped} skipped)` : 'unknown';
    const exit = r.exitCode === null ? 'killed' : String(r.exitCode);
    return `| ${first + i + 1} | ${mdCode(r.command)} | ${exit} | ${counts} | ${mdText(r.source, 20)} | ${mdCode(shortHash(r.treeHash), 10)} | ${r.by}${r.kind ? ` (${r.kind})` : ''} |`;
  });
  const note = first > 0 ? ['', `_${first} earlier run(s) not shown._`] : [];
  const final = [...ev.testRuns].reverse().find((r) => r.kind === 'final');
  if (final?.commit)
    note.push(
      '',
      `_The final run tested commit ${mdCode(shortHash(final.commit), 12)} in a clean checkout; counts from the runner's report${final.runner ? ` (${mdText(final.runner, 20)})` : ''}._`,
    );
  if (final?.fixed?.length)
    note.push(
      '',
      `_Failed on the base commit and pass now: ${final.fixed
        .slice(0, 10)
        .map((id) => mdCode(id, 120))
        .join(', ')}${final.fixed.length > 10 ? ` and ${final.fixed.length - 10} more` : ''}._`,
    );
  for (const r of shown) if (r.note && r.by === 'harness') note.push('', `_${r.kind ?? 'harness'} run: ${mdText(r.note, 300)}_`);
  return [
    '### Test runs',
    '',
    '| # | Command | Exit | Executed / total | Source | Tree | By |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    ...note,
  ];
}

function filesTable(ev: Evidence): string[] {
  if (ev.filesChanged.length === 0) return [`### Files changed`, '', '_No file changed._'];
  const shown = ev.filesChanged.slice(0, MAX_FILES);
  const rows = shown.map((f) => `| ${mdCode(f.path, 160)} | +${f.added} | −${f.removed} |`);
  const more = ev.filesChanged.length - shown.length;
  const note = more > 0 ? ['', `_${more} more file(s) not shown._`] : [];
  return [`### Files changed (${ev.filesChanged.length})`, '', '| File | Added | Removed |', '| --- | ---: | ---: |', ...rows, ...note];
}

/** The files the commit left out (a WIP commit's are kept in the worktree) and the secret-looking paths the agent never saw. */
function leftOutSection(ev: Evidence): string[] {
  const out: string[] = [];
  if (ev.leftOut?.length) {
    const rows = ev.leftOut.slice(0, MAX_FILES).map((l) => `| ${mdCode(l.path, 160)} | ${mdText(l.why, 200)} |`);
    out.push(
      `### Left out of the ${ev.verdict === 'verified' ? '' : 'WIP '}commit (${ev.leftOut.length})`,
      '',
      '| File | Why |',
      '| --- | --- |',
      ...rows,
    );
  }
  if (ev.masked?.length) {
    if (out.length) out.push('');
    const shown = ev.masked.slice(0, MAX_FILES).map((p) => mdCode(p, 160));
    const more = ev.masked.length > shown.length ? ` and ${ev.masked.length - shown.length} more` : '';
    out.push(`**Hidden from the agent (content matching a secret rule):** ${shown.join(', ')}${more}`);
  }
  if (ev.maskedReads?.length) {
    const shown = ev.maskedReads.slice(0, MAX_FILES).map((p) => mdCode(p, 160));
    out.push('', `**A test read a masked file:** ${shown.join(', ')}: opt it in with \`permissions.readable\` in .github/proofpr.yml`);
  }
  return out;
}

function deniedTable(ev: Evidence): string[] {
  if (ev.denied.length === 0) return [];
  const shown = ev.denied.slice(0, MAX_DENIED);
  const rows = shown.map((d) => `| ${mdText(d.tool, 40)} | ${mdCode(d.input)} | ${mdCode(d.rule, 80)} | ${mdText(d.reason, 200)} |`);
  const more = ev.denied.length - shown.length;
  const note = more > 0 ? ['', `_${more} more denied call(s) not shown._`] : [];
  return [
    `### Denied tool calls (${ev.denied.length})`,
    '',
    '| Tool | Input | Rule | Reason |',
    '| --- | --- | --- | --- |',
    ...rows,
    ...note,
  ];
}

function notVerified(ev: Evidence): string[] {
  const items: string[] = [];
  if (ev.verdict === 'aborted' || ev.verdict === 'error') {
    items.push(`- The run ended **${ev.verdict}** before the work could be proven: ${mdText(ev.reason, 300)}`);
  }
  for (const g of ev.gates.filter((x) => !x.passed)) items.push(`- **${mdText(g.name, 60)}** failed: ${mdTextWithCode(g.detail, 300)}`);
  if (ev.verdict !== 'verified' && ev.gates.length === 0) items.push('- The Stop gates never ran, so nothing was checked.');
  if (ev.verdict !== 'verified' && ev.testRuns.length === 0) items.push('- No test run was recorded.');
  for (const h of ev.hookErrors ?? []) items.push(`- Hook error: ${mdText(h, 300)}`);
  if (items.length === 0) return [];
  return ['### What was not verified and why', '', ...items];
}

/**
 * Gates that found what they look for and did not block (`advisory`): another check decided, or the
 * configuration allows it. Never shown as passed: each is listed with what it found, for the reviewer.
 */
function advisorySection(ev: Evidence): string[] {
  const list = ev.gates.filter((g) => g.advisory);
  if (list.length === 0) return [];
  return [
    '### Found, not blocking (advisory)',
    '',
    '_These gates found what they look for; they do not decide the verdict here (another check decides, or the configuration allows it). Review what they found._',
    '',
    ...list.map((g) => `- **${mdText(g.name, 60)}**: ${mdTextWithCode(g.detail, 300)}`),
  ];
}

/** Under the headline: how many gates were advisory, so "every gate passed" is never read alone. */
function advisoryLine(ev: Evidence): string[] {
  const n = ev.gates.filter((g) => g.advisory).length;
  return n ? ['', `_${n} gate(s) found what they look for without blocking: see "Found, not blocking (advisory)" below._`] : [];
}

/** The repository's other checks: what ran and passed, what was not run here and why (seed 000 §7.2). */
function notRunSection(ev: Evidence): string[] {
  if (!ev.notRun) return [];
  const passed = ev.checksPassed ?? [];
  const ran = passed.length ? [`Ran and passed: ${passed.map((c) => mdCode(c, 120, false)).join(', ')}.`, ''] : [];
  const label = { failed: 'failed: ', stale: 'not run on the final tree: ' } as const;
  const items = ev.notRun.map((n) => `- ${mdCode(n.check, 120, false)}: ${n.state ? label[n.state] : ''}${mdTextWithCode(n.why, 300)}`);
  if (items.length === 0 && ran.length === 0) return [];
  return ['### Not run here, and why', '', ...ran, ...(items.length ? items : ['Every other check of the repository ran.'])];
}

function usageLine(ev: Evidence): string[] {
  const u = ev.usage;
  const tools = Object.keys(ev.toolCalls)
    .sort()
    .map((k) => `${mdText(k, 40)} ${ev.toolCalls[k]}`)
    .join(' · ');
  const comp = u.compactions === 1 ? '1 compaction' : `${u.compactions} compactions`;
  const lines = [
    `**Usage:** ${u.turns} turns · ${formatInt(u.inputTokens)} input + ${formatInt(u.outputTokens)} output tokens (cache read ${formatInt(u.cacheReadTokens)}, cache write ${formatInt(u.cacheWriteTokens)}) · ${formatCost(u.costUsd)} · ${comp}`,
  ];
  if (u.thinkingTokens)
    lines.push(`**Thinking:** ${formatInt(u.thinkingTokens)} of the output tokens · ${formatCost(u.thinkingCostUsd ?? 0)} of the cost`);
  if (tools) lines.push(`**Tool calls:** ${tools}`);
  if (ev.model) lines.push(`**Model:** ${mdCode(ev.model, 80, false)}`);
  return [lines.join('  \n')];
}

/** Package lifecycle scripts the change touches, under their own heading (the gate lifecycle-scripts lists them). */
function lifecycleSection(ev: Evidence): string[] {
  const g = [...ev.gates].reverse().find((x) => x.name === 'lifecycle-scripts');
  if (!g || g.detail.startsWith('no package lifecycle script')) return [];
  const items = g.detail.split('; ').map((s) => `- ${mdTextWithCode(s, 300)}`);
  return [
    '### Package lifecycle scripts changed',
    '',
    ...items,
    '',
    g.passed ? '_Allowed by `permissions.writable`._' : '_Not allowed: the gate lifecycle-scripts failed._',
  ];
}

/** Which changed files are the fix (the shipped code) and whether reverting them alone made the new tests fail again. */
function fixLine(fix: NonNullable<Evidence['fix']>): string {
  if (fix.files.length === 0) return '**The fix:** no change to the code the project ships.';
  const files =
    fix.files
      .slice(0, 8)
      .map((f) => mdCode(f, 120, false))
      .join(', ') + (fix.files.length > 8 ? ', …' : '');
  const how = fix.attributed ? 'reverting these alone makes the new tests fail again' : 'not shown to be what makes the tests pass';
  return `**The fix:** ${files} (the code the project ships): ${how}.`;
}

/** What in the change would run later (evidence infrastructureChanges): each path and why, for the reviewer. */
function laterSection(ev: Evidence): string[] {
  const list = ev.infrastructureChanges ?? [];
  if (list.length === 0) return [];
  const rows = list.slice(0, MAX_FILES).map((c) => `| ${mdCode(c.path, 160)} | ${mdText(c.why, 240)} |`);
  const more = list.length > rows.length ? ['', `_${list.length - rows.length} more in evidence.json (\`infrastructureChanges\`)._`] : [];
  return ['### Outside the shipped code, or run later (review these)', '', '| File | Why |', '| --- | --- |', ...rows, ...more];
}

/** At most this many changed expectations in the PR body; the evidence lists them all. */
const CHANGED_SHOWN = 25;

/** What became of a base test, in words: the change's kind and its outcome under the base's own tests. */
function changedWhat(c: ChangedExpectation): string {
  const out = c.outcome ?? 'failed';
  const on = { passed: 'passes', failed: 'fails', skipped: 'is skipped', 'not run': 'did not run' }[out];
  const underBase = `under the base's own tests it ${on} on the new code`;
  if (c.kind === 'deleted')
    return `deleted by the change (the final run no longer runs it); ${underBase}. Old expectation: ${mdCode(c.base, 200, false)}; new: none.`;
  if (c.kind === 'renamed')
    return `renamed by the change to ${mdCode(c.now, 200, false)}; ${underBase}. Old expectation: ${mdCode(c.base, 200, false)}.`;
  if (c.kind === 'skipped')
    return `skipped by the change; ${underBase}. Old expectation: ${mdCode(c.base, 200, false)}; new: ${mdCode(c.now, 200, false)}.`;
  return `passed on the base and fails on the new code under the base's own tests. Old expectation: ${mdCode(c.base, 200, false)}; new: ${mdCode(c.now, 200, false)}.`;
}

/**
 * Base tests the change altered, deleted, renamed or skipped: at the top of the PR body, for the reviewer
 * to confirm (the first CHANGED_SHOWN; the evidence's changedExpectations has every one).
 */
function changedExpectationsSection(ev: Evidence): string[] {
  const list = ev.changedExpectations ?? [];
  if (list.length === 0) return [];
  const items = list
    .slice(0, CHANGED_SHOWN)
    .map(
      (c) =>
        `- ${mdCode(c.test, 200, false)}: ${changedWhat(c)}` +
        (c.failure ? `\n\n  \`\`\`text\n  ${c.failure.slice(0, 800).replace(/`/g, "'").split('\n').join('\n  ')}\n  \`\`\`` : ''),
    );
  const more = list.length > CHANGED_SHOWN ? [`- and ${list.length - CHANGED_SHOWN} more (evidence.json, \`changedExpectations\`)`] : [];
  return ['### Changed expectations (review these)', '', ...items, ...more];
}

/** Renders summary.md for the evidence; deterministic (no clock, no locale). */
export function renderSummaryMd(evidence: Evidence, opts: SummaryOptions = {}): string {
  // Before any section reads it: no host path in any string of the evidence (the reviewer's view).
  const ev = withoutHostPaths(evidence, opts.places ?? []);
  const sections: string[][] = [
    [`## ${HEADLINE[ev.verdict]}`, '', mdText(ev.reason, 400), ...advisoryLine(ev)],
    changedExpectationsSection(ev),
    factsBlock(ev, opts),
    gatesTable(ev),
    lifecycleSection(ev),
    laterSection(ev),
    untestedSection(ev),
    notVerified(ev),
    advisorySection(ev),
    notRunSection(ev),
    secondLookSection(ev),
    testRunsTable(ev),
    filesTable(ev),
    leftOutSection(ev),
    deniedTable(ev),
    usageLine(ev),
  ];
  return (
    sections
      .filter((s) => s.length > 0)
      .map((s) => s.join('\n'))
      .join('\n\n') + '\n'
  );
}
