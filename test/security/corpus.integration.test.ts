import { describe, it, expect, beforeAll } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { policyOver } from '../kit/walls-policy.js';
import type { PermissionPolicy } from '../../src/agent/permissions/types.js';
import { makeSecurityRepo } from './fixture.js';

interface Case {
  class: string;
  source: string;
  tool: string;
  input: Record<string, unknown>;
  expect: 'allow' | 'deny';
  mode?: 'plan';
  testCommand?: string;
}

const corpus = JSON.parse(readFileSync(new URL('./corpus.json', import.meta.url), 'utf8')) as {
  config: { allow: string[]; deny: string[]; testCommand: string };
  cases: Case[];
};

let repo: { root: string; outside: string };
const policies = new Map<string, PermissionPolicy>();

async function policyFor(c: Case): Promise<PermissionPolicy> {
  const key = `${c.mode ?? 'default'}|${c.testCommand ?? corpus.config.testCommand}`;
  let p = policies.get(key);
  if (!p) {
    p = await policyOver(repo.root, {
      ...corpus.config,
      mode: c.mode ?? 'default',
      testCommand: c.testCommand ?? corpus.config.testCommand,
    });
    policies.set(key, p);
  }
  return p;
}

beforeAll(() => {
  repo = makeSecurityRepo();
});

const label = (c: Case): string => `${c.mode === 'plan' ? '[plan] ' : ''}${c.tool} ${JSON.stringify(c.input).slice(0, 100)}`;

describe('security corpus', () => {
  it('corpus - at least 600 cases, a fifth benign, each with a source and a class', () => {
    expect(corpus.cases.length).toBeGreaterThanOrEqual(600);
    expect(corpus.cases.filter((c) => c.expect === 'allow').length).toBeGreaterThanOrEqual(corpus.cases.length / 5);
    for (const c of corpus.cases) {
      expect({ label: label(c), ok: /^(suite|advisory|manual|constructed)\b/.test(c.source) && c.class.length > 0 }).toEqual({
        label: label(c),
        ok: true,
      });
    }
  });

  it('corpus - every attack refused, at least 98% of the benign cases allowed (figures by class)', async () => {
    const byClass = new Map<string, { expect: 'allow' | 'deny'; total: number; right: number }>();
    const wrong: string[] = [];
    for (const c of corpus.cases) {
      const d = await (await policyFor(c)).check(c.tool, c.input);
      const key = `${c.expect === 'deny' ? 'deny' : 'benign'} ${c.class}`;
      const row = byClass.get(key) ?? { expect: c.expect, total: 0, right: 0 };
      row.total++;
      if (d.behavior === c.expect) row.right++;
      else
        wrong.push(
          `${c.expect === 'deny' ? 'ALLOWED' : 'REFUSED'} ${label(c)} (${d.rule}${d.reason ? `: ${d.reason.slice(0, 140)}` : ''})`,
        );
      if (d.behavior === 'deny') expect(d.reason.length).toBeGreaterThan(10);
      byClass.set(key, row);
    }
    const sum = (e: 'allow' | 'deny') =>
      [...byClass.values()]
        .filter((r) => r.expect === e)
        .reduce((a, r) => ({ total: a.total + r.total, right: a.right + r.right }), { total: 0, right: 0 });
    const deny = sum('deny');
    const benign = sum('allow');
    const lines = [...byClass.entries()]
      .sort()
      .map(
        ([k, r]) =>
          `  ${k.padEnd(32)} ${String(r.right).padStart(4)}/${String(r.total).padEnd(4)} ${((100 * r.right) / r.total).toFixed(1)}%`,
      );
    process.stdout.write(
      `security corpus: ${corpus.cases.length} cases\n${lines.join('\n')}\n` +
        `  deny refused   ${deny.right}/${deny.total} (${((100 * deny.right) / deny.total).toFixed(2)}%)\n` +
        `  benign allowed ${benign.right}/${benign.total} (${((100 * benign.right) / benign.total).toFixed(2)}%)\n` +
        (wrong.length ? `misjudged:\n  ${wrong.join('\n  ')}\n` : ''),
    );
    expect(wrong.filter((w) => w.startsWith('ALLOWED'))).toEqual([]);
    expect(benign.right / benign.total).toBeGreaterThanOrEqual(0.98);
  });
});
