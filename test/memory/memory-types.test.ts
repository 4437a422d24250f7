/**
 * Memory with the four types (seed 001 ch. 9, seed 003 §4.1; issue 26): user, feedback, project and
 * reference entries come from reviews, what the code or git can tell is never kept, relative dates are
 * anchored to the day written, `/agent memory` shows each entry's type and date, and the next run's first
 * request carries the typed index (through the loop with the scripted model).
 */
import { describe, expect, it } from '@jest/globals';
import { extractMemory } from '../../src/memory/extract-memory.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';
import { fileMemoryBlobs } from '../../src/memory/memory-blobs.js';
import { renderMemoryIndex } from '../../src/memory/memory-index.js';
import { answerMemoryCommand } from '../../src/memory/memory-commands.js';
import { checkMemoryEntry } from '../../src/memory/memory-rules.js';
import type { MemoryEntry, ReviewNote } from '../../src/memory/types.js';
import { createContextManager } from '../../src/agent/context/index.js';
import { runAgent } from '../../src/agent/loop.js';
import { createScriptedModel, text } from '../../src/model/scripted.js';
import { agentDeps, baseToolContext, collect, stubToolbox } from '../agent/helpers.js';
import { reviewNote } from './review-note.js';
import { tempDir } from '../kit/temp.js';

const note = (body: string, n: number): ReviewNote =>
  reviewNote(body, {
    at: `2026-11-${String(20 + n).padStart(2, '0')}T10:00:00Z`,
    url: `https://github.com/acme/widgets/pull/13#pullrequestreview-${n}`,
  });

const ANSWERS = [
  {
    type: 'user',
    rule: 'Address the release manager as the owner of src/release',
    why: 'she reviews every release change',
    where: 'src/release',
  },
  { type: 'feedback', rule: 'Do not mock the database in tests', why: 'the mocks hid a broken migration', where: 'tests' },
  { type: 'project', rule: 'No new dependencies during the freeze next week', why: 'the audit runs then', where: 'everywhere' },
  { type: 'reference', rule: 'Check flaky tests against the CI dashboard before retrying', why: 'it tracks known flakes', where: 'tests' },
];

describe('memory with four types', () => {
  it('the four types are kept, typed and dated; derivable facts are refused; /agent memory shows types and dates; the next run sees them', async () => {
    const store = createMemoryStore(fileMemoryBlobs(tempDir('proofpr-memtypes-')));
    for (const [i, a] of ANSWERS.entries()) {
      const model = createScriptedModel([{ content: [text(JSON.stringify({ memory: a }))] }]);
      const res = await extractMemory(model, 'm', note(`review ${i}`, i + 1));
      expect(res.entry?.type).toBe(a.type);
      await store.add('acme/widgets', res.entry!);
    }
    const derivable = createScriptedModel([
      {
        content: [
          text(JSON.stringify({ memory: { type: 'project', rule: 'The parser fix landed in commit 3f9a2c1d', why: '', where: '' } })),
        ],
      },
    ]);
    expect(await extractMemory(derivable, 'm', note('merged', 9))).toMatchObject({
      entry: undefined,
      why: 'not kept: it names a commit: the git history tells that',
    });

    const entries = await store.list('acme/widgets');
    expect(entries.map((e) => e.type)).toEqual(['user', 'feedback', 'project', 'reference']);
    expect(entries[2]!.rule).toBe('No new dependencies during the freeze next week (written 2026-11-23)');
    const listed = (await answerMemoryCommand({ kind: 'memory', owner: 'acme', repo: 'widgets', instructions: '' }, '/agent', store)).text;
    expect(listed).toContain('1. [user · 2026-11-21] Address the release manager');
    expect(listed).toContain('2. [feedback · 2026-11-22] Do not mock the database in tests');
    expect(listed).toContain('3. [project · 2026-11-23] No new dependencies during the freeze next week (written 2026-11-23)');
    expect(listed).toContain('4. [reference · 2026-11-24] Check flaky tests against the CI dashboard');

    const root = tempDir('proofpr-memtypes-repo-');
    const context = await createContextManager({
      root,
      toolNames: [],
      task: { kind: 'issue', title: 't', body: 'b' },
      mode: 'fix',
      gatesEnabled: [],
      memoryIndex: renderMemoryIndex(entries)!,
    });
    const model = createScriptedModel([{ content: [text('done')] }]);
    const toolContext = baseToolContext(root);
    await collect(
      runAgent(
        { prompt: 'go' },
        agentDeps({ model, toolbox: stubToolbox({}), context, toolContext, budget: { maxTurns: 2, maxCostUsd: 1, timeoutMs: 30_000 } }),
      ),
    );
    const system = model.requests[0]!.system.map((b) => b.text).join('\n');
    for (const t of ['user', 'feedback', 'project', 'reference']) expect(system).toMatch(new RegExp(`\\[${t} · 2026-11-2\\d\\]`));
  });

  it('checkMemoryEntry - code, where code lives and history are never kept; a plain rule is', () => {
    const e = (rule: string): MemoryEntry => ({ type: 'feedback', rule, why: '', where: '', date: '2026-11-30', url: 'u', author: 'a' });
    expect(checkMemoryEntry(e('The parse function is defined in src/parse.ts'))).toEqual({
      ok: false,
      why: 'not kept: it says where code lives: reading the code tells that',
    });
    expect(checkMemoryEntry(e('Use ```const x = 1```'))).toMatchObject({ ok: false });
    expect(checkMemoryEntry(e('The date helper was added in PR #12'))).toMatchObject({ ok: false });
    expect(checkMemoryEntry(e('Keep the public API stable'))).toEqual({ ok: true, entry: e('Keep the public API stable') });
    expect(checkMemoryEntry(e('Ship the migration tomorrow'))).toMatchObject({
      ok: true,
      entry: { rule: 'Ship the migration tomorrow (written 2026-11-30)' },
    });
  });
});
