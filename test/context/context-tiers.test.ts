/**
 * Context tiers through the loop with the real context manager and the scripted model: when the prompt
 * cache has expired (a pause longer than its TTL, on an injected clock), old tool results are cleared
 * before the next request, whatever the context size; within the TTL nothing is cleared.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { STUB_PREFIX } from '../../src/agent/context/microcompact.js';
import type { Verifier } from '../../src/agent/verification/types.js';
import type { ModelRequest } from '../../src/model/model-client.js';
import { createScriptedModel, text, toolUse, type ScriptStep } from '../../src/model/scripted.js';
import { stubToolbox } from '../agent/helpers.js';
import { contextManager, filler, loopDeps, runLoop, useFixtureRepo } from './helpers.js';

const PASS = { name: 'tests_passed', passed: true, detail: '3 passed' };
const verifier: Verifier = {
  beforeBash: async () => undefined,
  afterBash: async () => {
    throw new Error('not called');
  },
  evaluate: async () => ({ ok: true, gates: [PASS], message: '' }),
  finalCheck: async () => ({ ok: true, gates: [PASS], message: '' }),
};

const EDITED = 'export const splitLines = (s: string): string[] => s.split(/\\r?\\n/); // REMOUNT-MARK\n';
let repoRoot = '';

const toolbox = stubToolbox(
  {
    Edit: (i) => {
      writeFileSync(join(repoRoot, String(i.file_path)), EDITED);
      return { forModel: `edited ${String(i.file_path)}`, isError: false, effects: [{ type: 'file_changed', path: String(i.file_path) }] };
    },
    Skill: () => ({ forModel: '<skill name="release">\nSKILL-BODY-MARK: bump the version first\n</skill>', isError: false }),
    Read: (i) => ({ forModel: `${String(i.file_path)}\n${filler(String(i.file_path), 3_000)}`, isError: false }),
  },
  ['Read'],
);

const read = (n: number): ScriptStep => ({ content: [toolUse('Read', { file_path: `src/f${n}.ts` }, `r${n}`)] });
const sentText = (r: ModelRequest | undefined): string => JSON.stringify(r?.messages ?? []);

describe('context tiers through the loop', () => {
  const repo = useFixtureRepo();
  beforeAll(() => {
    repoRoot = repo.root;
  });

  /** Three reads; before the fourth request the clock moves by `pauseMs`. */
  async function run(pauseMs: number, script?: (r: ModelRequest, n: number) => ScriptStep | undefined) {
    let t = 1_000_000;
    const model = createScriptedModel((r) => {
      const n = model.requests.length;
      const step = script?.(r, n);
      if (step) return step;
      if (n <= 3) {
        t += 1_000;
        if (n === 3) t += pauseMs;
        return read(n);
      }
      return { content: [text('Done.')] };
    });
    const context = await contextManager(repo.root, {
      toolNames: ['Edit', 'Read', 'Skill'],
      gatesEnabled: ['tests_passed'],
      protectRecent: 1,
      cacheTtlMs: 5 * 60_000,
      now: () => t,
    });
    const { events } = await runLoop(loopDeps({ root: repo.root, model, context, toolbox }, { verifier, maxStopBlocks: 1 }));
    return { events, model };
  }

  it('context-tiers - a pause longer than the cache TTL clears old tool results before the next request', async () => {
    const { events, model } = await run(6 * 60_000);
    const last = sentText(model.requests[3]);
    // the two older reads are stubs naming the tool and how to get them again; the latest stays
    expect(last).toContain(`${STUB_PREFIX} Read {\\"file_path\\":\\"src/f1.ts\\"}`);
    expect(last).toContain(`${STUB_PREFIX} Read {\\"file_path\\":\\"src/f2.ts\\"}`);
    expect(last).toContain('run the tool again if you need it');
    expect(last).toContain('src/f3.ts line 10');
    expect(last).not.toContain('src/f1.ts line 10');
    const compactions = events.filter((e) => e.type === 'compaction');
    expect(compactions).toHaveLength(1);
    expect(compactions[0]).toMatchObject({ kind: 'microcompact', ok: true });
    expect(JSON.stringify(compactions[0])).toContain('cache expired');
    // earlier requests were within the TTL: nothing cleared
    expect(sentText(model.requests[2])).not.toContain(STUB_PREFIX);
  });

  it('context-tiers - within the cache TTL nothing is cleared (a small context)', async () => {
    const { events, model } = await run(60_000);
    expect(sentText(model.requests[3])).not.toContain(STUB_PREFIX);
    expect(events.filter((e) => e.type === 'compaction')).toHaveLength(0);
  });

  it('context-tiers - after a summary the next request carries the current text of the file edited last and the loaded skill body', async () => {
    const isSummary = (r: ModelRequest): boolean => r.tools.length === 0;
    let main = 0;
    const { events, model } = await run(0, (r) => {
      if (isSummary(r)) return { content: [text('short hand-off')] };
      main++;
      if (main === 1) {
        const reads = [1, 2, 3, 4, 5, 6].map((k) => toolUse('Read', { file_path: `src/f${k}.ts` }, `r${k}`));
        return { content: [toolUse('Skill', { name: 'release' }, 's1'), ...reads, toolUse('Edit', { file_path: 'src/parser.ts' }, 'e1')] };
      }
      if (main === 2) return { error: 'prompt_too_long', message: 'prompt is too long' };
      return { content: [text('Done.')] };
    });
    const compactions = events.filter((e) => e.type === 'compaction');
    expect(compactions[0]).toMatchObject({ kind: 'summary', ok: true });
    const after = model.requests.filter((r) => !isSummary(r))[2];
    expect(sentText(after)).toContain('<edited-files>');
    expect(sentText(after)).toContain('--- src/parser.ts (current contents');
    expect(sentText(after)).toContain('REMOUNT-MARK');
    // and the body of the skill loaded before it
    expect(sentText(after)).toContain('<loaded-skills>');
    expect(sentText(after)).toContain('SKILL-BODY-MARK');
  });
});
