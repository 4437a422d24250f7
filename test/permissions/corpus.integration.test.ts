import { describe, it, expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { usePolicies } from '../kit/walls-policy.js';
import { makePolicyRepo } from './fixture-repo.js';

interface Case {
  tool: string;
  input: Record<string, unknown>;
  expect: 'allow' | 'deny';
  rule?: string;
}
const corpus = JSON.parse(readFileSync(new URL('../fixtures/policy/corpus.json', import.meta.url), 'utf8')) as {
  config: { allow: string[]; deny: string[]; testCommand: string };
  cases: Case[];
  planCases: Case[];
};

let root = '';
const { policy, plan } = usePolicies(() => (root = makePolicyRepo().root), {
  policy: corpus.config,
  plan: { ...corpus.config, mode: 'plan' },
});

function label(c: Case): string {
  return `${c.tool} ${JSON.stringify(c.input).slice(0, 90)}`;
}

function withRoot(input: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(input).replaceAll('{root}', root)) as Record<string, unknown>;
}

describe('policy corpus', () => {
  it('policy corpus - holds at least 150 cases', () => {
    expect(corpus.cases.length).toBeGreaterThanOrEqual(150);
  });

  it.each(corpus.cases.map((c) => [label(c), c] as const))('policy corpus - default mode: %s', async (_l, c) => {
    const d = await policy.check(c.tool, withRoot(c.input));
    expect({ behavior: d.behavior, rule: c.rule && d.rule.startsWith(c.rule) ? c.rule : d.rule, reason: d.reason }).toMatchObject({
      behavior: c.expect,
      ...(c.rule ? { rule: c.rule } : {}),
    });
    if (d.behavior === 'deny') expect(d.reason.length).toBeGreaterThan(10);
  });

  it.each(corpus.planCases.map((c) => [label(c), c] as const))('policy corpus - plan mode: %s', async (_l, c) => {
    const d = await plan.check(c.tool, withRoot(c.input));
    expect({ behavior: d.behavior, rule: c.rule && d.rule.startsWith(c.rule) ? c.rule : d.rule }).toMatchObject({
      behavior: c.expect,
      ...(c.rule ? { rule: c.rule } : {}),
    });
  });
});
