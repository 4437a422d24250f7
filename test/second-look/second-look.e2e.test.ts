/**
 * The second look through the real runTask (temp git repository, node --test, the real verifier): on, off,
 * and block_on: high. A scripted model plays the first agent (an honest fix) and then the second look.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoConfig, runScripted } from '../e2e/helpers.js';
import { text, toolUse, type ScriptStep } from '../../src/model/scripted.js';
import { SECOND_LOOK_SYSTEM_PROMPT } from '../../src/agent/second-look/prompt.js';
import { parseFindings } from '../../src/agent/second-look/parse-findings.js';
import { runSecondLook } from '../../src/agent/second-look/run-second-look.js';
import { createScriptedModel } from '../../src/model/scripted.js';
import { silentLogger } from '../../src/log.js';

const SUMMARY = 'Done: I sorted numerically and the tests pass. Everything is perfect.';
const fix: ScriptStep[] = [
  { content: [toolUse('Read', { file_path: 'src/stats.js' })] },
  {
    content: [
      toolUse('Edit', { file_path: 'src/stats.js', old_string: '[...values].sort();', new_string: '[...values].sort((a, b) => a - b);' }),
    ],
  },
  { content: [toolUse('Bash', { command: 'node --test' })] },
  { content: [text(SUMMARY)] },
];
const look = (findings: unknown[]): ScriptStep[] => [
  { content: [toolUse('Grep', { pattern: 'median', path: 'src' })], usage: { inputTokens: 900, outputTokens: 40 } },
  { content: [text(JSON.stringify({ findings }))], usage: { inputTokens: 1100, outputTokens: 120 } },
];
const medium = { severity: 'medium', file: 'src/stats.js', text: 'median([NaN, 1]) sorts NaN unpredictably; no test covers NaN input' };
const high = {
  severity: 'high',
  file: 'src/stats.js',
  text: 'median(["10", "9", "2"]) (strings from a CSV) still sorts lexicographically and returns "2"',
};

describe('second look', () => {
  it('second look - on: a fresh read-only context gets the issue, the diff and the final test output (not the summary); findings in evidence and PR body; tokens in usage', async () => {
    const { res, model } = await runScripted([...fix, ...look([medium])], { config: demoConfig('review:\n  enabled: true\n') });
    expect(`${res.evidence.verdict}: ${res.evidence.reason}`).toMatch(/^verified/);
    const req = model.requests[fix.length]!;
    expect(req.system.map((b) => b.text)).toEqual([SECOND_LOOK_SYSTEM_PROMPT]);
    expect(req.tools.map((t) => t.name).sort()).toEqual(['Glob', 'Grep', 'Read']);
    expect(req.messages).toHaveLength(1);
    const asked = JSON.stringify(req.messages[0]);
    expect(asked).toContain('median() is wrong');
    expect(asked).toContain('sort((a, b) => a - b)');
    expect(asked).toMatch(/<test-output>[\s\S]*(pass|ok)/);
    expect(asked).not.toContain(SUMMARY);
    // Its tool call ran under the same policy, read-only.
    expect(JSON.stringify(model.requests[fix.length + 1]!.messages.at(-1))).toContain('stats.js');
    expect(res.evidence.secondLook).toMatchObject({
      status: 'done',
      findings: [medium],
      usage: { inputTokens: 2000, outputTokens: 160, turns: 2 },
    });
    expect(res.evidence.usage.turns).toBe(fix.length + 2);
    expect(res.evidence.gates.find((g) => g.name === 'second-look')).toBeUndefined();
    const md = readFileSync(join(res.runDir, 'summary.md'), 'utf8');
    expect(md).toContain('### Second look');
    expect(md).toContain('🟠 medium');
    expect(md).toContain('not a gate');
    expect(readFileSync(join(res.runDir, 'second-look.jsonl'), 'utf8')).toContain('"type":"tool_call"');
  }, 60_000);

  it('second look - off (the default): no extra request, no secondLook in the evidence', async () => {
    const { res, model } = await runScripted(fix);
    expect(res.evidence.verdict).toBe('verified');
    expect(model.requests).toHaveLength(fix.length);
    expect(res.evidence.secondLook).toBeUndefined();
  }, 60_000);

  it('second look - block_on: high: a high-severity finding fails the second-look gate; the run is unverified and kept as WIP', async () => {
    const { res } = await runScripted([...fix, ...look([medium, high])], {
      config: demoConfig('review:\n  enabled: true\n  block_on: high\n'),
    });
    expect(res.evidence.verdict).toBe('unverified');
    expect(res.exitCode).toBe(3);
    expect(res.wip).toBe(true);
    expect(res.evidence.gates.find((g) => g.name === 'second-look')).toMatchObject({
      passed: false,
      detail: expect.stringContaining('1 high-severity finding'),
    });
    expect(res.evidence.secondLook?.findings.map((f) => f.severity)).toEqual(['high', 'medium']);
    expect(readFileSync(join(res.runDir, 'summary.md'), 'utf8')).toMatch(/second-look\*\* failed/);
  }, 60_000);

  it('second look - block_on: high with only medium findings passes the gate', async () => {
    const { res } = await runScripted([...fix, ...look([medium])], { config: demoConfig('review:\n  enabled: true\n  block_on: high\n') });
    expect(res.evidence.verdict).toBe('verified');
    expect(res.evidence.gates.find((g) => g.name === 'second-look')).toMatchObject({ passed: true });
  }, 60_000);

  it('second look - findings are validated, sorted by severity, capped and redacted; prose is no answer', () => {
    expect(parseFindings('I found nothing wrong.')).toBeUndefined();
    expect(parseFindings('{"findings": [{"severity": "critical", "text": "x"}]}')).toBeUndefined();
    const got = parseFindings(
      `\`\`\`json\n{"findings": [{"severity": "LOW", "file": null, "text": "a"}, {"severity": "high", "file": "a.js", "text": "token ghp_abcdefghijklmnopqrstuvwxyz0123456789 ${'x'.repeat(900)}"}]}\n\`\`\``,
    )!;
    expect(got.map((f) => f.severity)).toEqual(['high', 'low']);
    expect(got[0]!.text.length).toBeLessThanOrEqual(500);
    expect(got[0]!.text).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(got[1]!.file).toBe('');
  });

  it('second look - with no budget left it is skipped without a request', async () => {
    const model = createScriptedModel([]);
    const r = await runSecondLook({
      model,
      modelId: 'm',
      root: '/nonexistent',
      gitDir: '/nonexistent',
      runDir: '/nonexistent',
      exec: async () => {
        throw new Error('no exec');
      },
      logger: silentLogger,
      allow: [],
      deny: [],
      budget: { maxTurns: 0, maxCostUsd: 1, timeoutMs: 1000 },
      costOf: () => 0,
      blockOn: 'high',
      input: { issue: { title: 't', body: 'b' }, diff: '', testOutput: '' },
    });
    expect(r).toMatchObject({ status: 'skipped', reason: 'no budget left for a second look', gate: { name: 'second-look', passed: true } });
    expect(model.requests).toHaveLength(0);
  });
});
