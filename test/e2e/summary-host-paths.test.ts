/**
 * summary.md names no host path (issue 38, "The PR body is evidence too"): a real run (runTask, the
 * scripted model, the demo repository) puts absolute paths of the run's own places into every part of
 * the evidence the PR body shows that a run can fill, and the PR body must name none of them.
 *
 * The rule the cases were written by (before the mechanism): for each kind of text that reaches
 * summary.md from a run, make the run produce it with an absolute path under one of the run's places:
 * the worktree (W), the scratch folder (S: HOME and TMPDIR of the sandboxed processes), the machine's
 * home (H) and the machine's temp folder (T). The kinds are: an agent test run's command (test runs
 * table), a refused Read (denials: input and reason) of a file under H and one under T, a refused Bash
 * command naming S, a repository hook's error output (hook errors), the second look's finding (file and
 * text). Each case is one (kind, place) pair;
 * a case is caught when summary.md does not contain that place's path. The places are checked as whole
 * prefixes: any absolute path under them counts.
 *
 * First try (main at 8ba34df, before the mechanism): 10 planted (kind, place) cases, 0 kept out of
 * summary.md; 12 (section, place) pairs named a host path, in 4 sections (hook errors, second look, test
 * runs, denied calls). After (renderSummaryMd over withoutHostPaths): 10 of 10, 0 pairs.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import type { ModelRequest } from '../../src/model/model-client.js';
import { text, toolUse, type ScriptStep } from '../../src/model/scripted.js';
import { MEDIAN_FIX } from '../kit/e2e-script.js';
import { fixtureRepo, MEDIAN_ISSUE, runIssue } from './helpers.js';
import type { RunEvent } from '../../src/agent/events.js';

/** The places a host path of this run can be under, read from the sandbox's own answer (W, S) and the machine (H, T). */
interface Places {
  W: string;
  S: string;
}

/** The worktree and scratch folder as the sandboxed shell printed them (`W=… S=…`). */
function placesFrom(req: ModelRequest): Places | undefined {
  const m = /W=(\/[^\s"\\]+) S=(\/[^\s"\\]+)/.exec(JSON.stringify(req.messages));
  return m ? { W: m[1]!, S: m[2]! } : undefined;
}

const H = homedir();
/** Whether `text` names an absolute path at or under `place` (not a relative path that ends the same way). */
const names = (text: string, place: string): boolean =>
  new RegExp(`(^|[^\\w.~-])${place.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(/|\\b|$)`).test(text);
const T = tmpdir();

function script(seen: { p?: Places }): (req: ModelRequest) => ScriptStep {
  let p: Places | undefined;
  const bash = (command: string): ScriptStep => ({ content: [toolUse('Bash', { command })] });
  let n = 0;
  return (req) => {
    p ??= placesFrom(req);
    if (p) seen.p = p;
    const W = p?.W ?? '/missing';
    const S = p?.S ?? '/missing';
    const steps: Array<() => ScriptStep> = [
      () => bash('echo "W=$PWD S=$HOME"'),
      () => ({ content: [toolUse('Read', { file_path: join(H, '.proofpr-host-path-probe') })] }),
      () => ({ content: [toolUse('Read', { file_path: join(T, 'proofpr-host-path-probe.txt') })] }),
      () => bash(`ls ${S}/.cache ; cat ${W}/package.json`),
      () => ({ content: [toolUse('Read', { file_path: 'src/stats.js' })] }),
      () => MEDIAN_FIX,
      () => bash(`node --test ${W}/test/stats.test.js`),
      () => ({ content: [text('Done: the tests pass.')] }),
      // The second look's answer: its finding names the worktree and the scratch folder.
      () => ({
        content: [
          text(
            JSON.stringify({
              findings: [
                { severity: 'medium', file: `${W}/src/stats.js`, text: `an empty list at ${W}/src/stats.js (see ${S}/notes.txt)` },
              ],
            }),
          ),
        ],
      }),
    ];
    return (steps[n++] ?? (() => ({ content: [text('Done.')] })))();
  };
}

const CONFIG = parseRepoConfig(
  [
    'test:',
    '  command: node --test',
    'permissions:',
    '  allow: ["Bash(node --test:*)", "Bash(echo:*)"]',
    'review:',
    '  enabled: true',
    'hooks:',
    '  PostToolUse: [{ matcher: "Edit", command: "echo \\"formatter failed on $PWD/src/stats.js in $HOME\\" >&2; exit 1" }]',
    '',
  ].join('\n'),
);

describe('summary.md - no host path', () => {
  it('PR body - a run whose commands, refusals, hook errors and second look name the worktree, the scratch folder, the home and tmp: summary.md names none of them', async () => {
    const events: RunEvent[] = [];
    const seen: { p?: Places } = {};
    const { res } = await runIssue(fixtureRepo(), {
      issue: MEDIAN_ISSUE,
      branch: 'proofpr/7-median',
      config: CONFIG,
      script: script(seen),
      onEvent: (e) => events.push(e),
    });
    const md = readFileSync(join(res.runDir, 'summary.md'), 'utf8');
    const start = events.find((e) => e.type === 'run_start');
    const W = start?.type === 'run_start' ? start.root : '';
    expect(W).not.toBe('');
    expect(seen.p?.W).toBe(W);
    const places: Record<string, string> = { W, S: seen.p?.S ?? '/missing', H, T, run: res.runDir };
    // The places did reach the evidence: the run's text held them (the test would prove nothing otherwise).
    const raw = JSON.stringify(res.evidence);
    for (const p of [W, H, T]) expect(raw).toContain(p);
    // Per section of summary.md: which places it names (the first-try figure counts these pairs).
    const hits = md
      .split(/\n(?=#{2,3} )/)
      .flatMap((sec) => Object.entries(places).flatMap(([k, p]) => (names(sec, p) ? [`${sec.split('\n')[0]} / ${k}`] : [])));
    process.stdout.write(`host paths in summary.md (${hits.length}):\n${hits.join('\n')}\n`);
    const found = Object.fromEntries(Object.entries(places).map(([k, p]) => [k, names(md, p)]));
    expect(hits).toEqual([]);
    // What they read as instead: repository-relative, or the place's name.
    expect(md).toContain('`node --test test/stats.test.js`');
    expect(md).toContain('`~/.proofpr-host-path-probe`');
    expect(md).toContain('`<tmp>/proofpr-host-path-probe.txt`');
    expect(md).toContain('`ls <scratch>/home/.cache ; cat package.json`');
    expect(md).toContain('formatter failed on src/stats.js in \\<scratch\\>/home');
    expect(md).toContain('**🟠 medium** `src/stats.js`: an empty list at src/stats.js');
    expect(found).toEqual({ W: false, S: false, H: false, T: false, run: false });
  });
});
