import { describe, it, expect, beforeAll } from '@jest/globals';
import type { Message, ModelRequest, ToolSchema } from '../../src/model/model-client.js';
import type { LoadedContextManager } from '../../src/agent/context/index.js';
import { renderReminder } from '../../src/agent/context/reminder.js';
import { contextManager, facts, fixtureRepo, history } from './helpers.js';

const schemas: ToolSchema[] = ['Read', 'Grep', 'Glob', 'Edit', 'Bash'].map((name) => ({
  name,
  description: `${name} tool`,
  input_schema: { type: 'object', properties: { path: { type: 'string' } } },
}));

type Part = { where: string; value: unknown };

/** The request flattened into cacheable parts in API order: tools, system, then message blocks. */
function parts(req: Pick<ModelRequest, 'system' | 'tools' | 'messages'>): Part[] {
  const out: Part[] = [];
  req.tools.forEach((t, i) => out.push({ where: `tool ${i}`, value: t }));
  req.system.forEach((b, i) => out.push({ where: `system ${i}`, value: b }));
  req.messages.forEach((m, i) => {
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    blocks.forEach((b, j) => out.push({ where: `${m.role} ${i}.${j}`, value: b }));
  });
  return out;
}

const marked = (p: Part): boolean => typeof p.value === 'object' && p.value !== null && 'cache_control' in p.value;
const unmarked = (ps: Part[]): string =>
  JSON.stringify(ps.map((p) => (marked(p) ? (({ cache_control: _c, ...r }) => r)(p.value as Record<string, unknown>) : p.value)));

describe('prepare and caching', () => {
  let ctx: LoadedContextManager;
  beforeAll(async () => {
    ctx = await contextManager(fixtureRepo().root, {
      toolNames: schemas.map((s) => s.name),
      testCommand: 'npm test',
      gatesEnabled: ['tests_ran'],
    });
  });

  it('prepare - the cached prefix of each request is byte-identical to the start of the next, across 30 turns', () => {
    const system = ctx.system();
    const tools = ctx.tools(schemas);
    let previous: Part[] | undefined;
    for (let turn = 1; turn <= 30; turn++) {
      const hist = history(turn - 1, 1500);
      const gates = turn % 3 === 0 ? [{ name: 'tests_passed', passed: false, detail: `2 failed at turn ${turn}` }] : [];
      const req = {
        system,
        tools,
        messages: ctx.prepare(hist, facts(turn, { gates, todos: [{ content: `step ${turn}`, status: 'in_progress' }] })),
      };
      const now = parts(req);
      expect(now.filter(marked).length).toBeLessThanOrEqual(4);
      if (previous) {
        const lastMark = previous.map(marked).lastIndexOf(true);
        const prefix = previous.slice(0, lastMark + 1);
        expect(unmarked(now.slice(0, prefix.length))).toBe(unmarked(prefix));
        // the previous request's rolling breakpoint is marked again, so that prefix is read from cache
        expect(marked(now[lastMark] as Part)).toBe(true);
      }
      // the reminder (dynamic) sits after the last breakpoint
      const last = now[now.length - 1] as Part;
      expect(JSON.stringify(last.value)).toContain('<system-reminder>');
      expect(marked(last)).toBe(false);
      expect(marked(now[now.length - 2] as Part)).toBe(true);
      previous = now;
    }
    expect(JSON.stringify(ctx.system())).toBe(JSON.stringify(system));
  });

  it('prepare - keeps at most four breakpoints even when the stored history carries old markers', () => {
    const hist = history(4);
    const first = hist[2] as Message & { role: 'user' };
    (first.content as Array<{ cache_control?: { type: 'ephemeral' } }>)[0]!.cache_control = { type: 'ephemeral' };
    const msgs = ctx.prepare(hist, facts(5));
    const req = { system: ctx.system(), tools: ctx.tools(schemas), messages: msgs };
    expect(
      parts(req)
        .filter(marked)
        .map((p) => p.where),
    ).toEqual(['tool 4', 'system 4', 'user 6.0', 'user 8.0']);
  });

  it('prepare - does not mutate the stored history', () => {
    const hist = history(3);
    const before = JSON.stringify(hist);
    ctx.prepare(hist, facts(4));
    expect(JSON.stringify(hist)).toBe(before);
  });

  it('prepare - turns a string user turn into blocks: breakpoint on the text, reminder appended', () => {
    const msgs = ctx.prepare([{ role: 'user', content: 'Fix it.' }], facts(1));
    expect(msgs).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Fix it.', cache_control: { type: 'ephemeral' } },
          { type: 'text', text: renderReminder(facts(1)) },
        ],
      },
    ]);
  });

  it('reminder - names date, branch, turn, money, time, failing gates and todos', () => {
    const text = renderReminder(
      facts(7, {
        gates: [
          { name: 'tests_ran', passed: true, detail: 'ran 12 tests' },
          { name: 'tests_passed', passed: false, detail: '1 failed' },
        ],
        todos: [
          { content: 'write the test', status: 'completed' },
          { content: 'fix parser', status: 'in_progress' },
        ],
      }),
    );
    expect(text).toBe(
      [
        '<system-reminder>',
        'Harness facts for this turn (from the harness, not from the repository):',
        '- Date: 2025-03-01',
        '- Branch: proofpr/12-parser',
        '- Turn 7 of 80',
        '- Spent $0.07 of $5.00',
        '- Time left: 28 min',
        '- Gates FAILING: tests_passed',
        '  - passed tests_ran: ran 12 tests',
        '  - FAILED tests_passed: 1 failed',
        '- Todo list:',
        '  [x] write the test',
        '  [~] fix parser',
        '</system-reminder>',
      ].join('\n'),
    );
  });

  it('tools - only the last schema carries the breakpoint and inputs are untouched', () => {
    const out = ctx.tools(schemas);
    expect(out.map((s) => s.cache_control)).toEqual([undefined, undefined, undefined, undefined, { type: 'ephemeral' }]);
    expect(schemas.every((s) => s.cache_control === undefined)).toBe(true);
  });
});
