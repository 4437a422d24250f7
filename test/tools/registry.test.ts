import { describe, it, expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { createRegistry } from '../../src/tools/registry.js';
import { defaultTools } from '../../src/tools/index.js';
import { defineTool, type ToolResult } from '../../src/tools/define-tool.js';
import { makeRepo } from './helpers/context.js';

const registry = createRegistry(defaultTools());

/** A read tool with no input that answers with `execute`. */
const toolNamed = (name: string, execute: () => Promise<ToolResult>) =>
  defineTool({ name, description: 'x', input: z.object({}), kind: 'read', execute });

describe('registry', () => {
  it('registry - offers the seven CONTRACT tools in a fixed order, each declaring its kind', () => {
    expect(registry.names()).toEqual(['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash', 'TodoWrite']);
    expect(registry.names().map((n) => registry.kindOf(n))).toEqual(['read', 'edit', 'edit', 'search', 'search', 'execute', 'think']);
    expect(registry.kindOf('Nope')).toBeUndefined();
  });

  it('registry - a tool says what a call touches', () => {
    expect(registry.access('Read', { file_path: 'src/a.ts' })).toEqual({ paths: [{ path: 'src/a.ts', type: 'file' }], patterns: [] });
    expect(registry.access('Glob', { pattern: '**/*.ts' })).toEqual({
      paths: [{ path: undefined, type: 'dir' }],
      patterns: [{ field: 'pattern', pattern: '**/*.ts' }],
    });
    expect(registry.access('Bash', { command: 'npm test' })).toMatchObject({ command: 'npm test', paths: [] });
    expect(registry.access('TodoWrite', { todos: [] })).toEqual({ paths: [], patterns: [] });
  });

  it('registry - schemas are byte-stable across calls and registries', () => {
    const a = JSON.stringify(registry.schemas());
    expect(JSON.stringify(registry.schemas())).toBe(a);
    expect(JSON.stringify(createRegistry(defaultTools()).schemas())).toBe(a);
    const copy = registry.schemas();
    (copy[0] as { cache_control?: unknown }).cache_control = { type: 'ephemeral' };
    expect(JSON.stringify(registry.schemas())).toBe(a);
  });

  it('registry - tool schemas and descriptions (what the model sees)', () => {
    expect(registry.schemas()).toMatchSnapshot();
  });

  it('registry - descriptions.ts is in sync with the .md files', async () => {
    const gen = (await import('../../scripts/gen-tool-descriptions.mjs' as string)) as { render(): string };
    expect(readFileSync(new URL('../../src/tools/descriptions.ts', import.meta.url), 'utf8')).toBe(gen.render());
  });

  it('registry - an unknown tool name answers with the valid names', () => {
    const r = registry.parse('read', { file_path: 'a' });
    expect(r).toEqual({
      ok: false,
      result: {
        isError: true,
        errorKind: 'unknown_tool',
        forModel: 'Unknown tool "read". Valid tools: Read, Write, Edit, Glob, Grep, Bash, TodoWrite. Call one of those by its exact name.',
      },
    });
  });

  it('registry - invalid input gets field-level corrections', () => {
    const r = registry.parse('Read', { file_path: 3, offset: 0, extra: true });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.result).toEqual({
      isError: true,
      errorKind: 'invalid_input',
      forModel:
        'Invalid input for Read:\n- file_path: expected string, received number\n- offset: must be >= 1\n- "extra": unknown field (valid fields: file_path, offset, limit)\nFix these fields and call Read again.',
    });
    const missing = registry.parse('Edit', { file_path: 'a', new_string: 'b' });
    expect(missing.ok ? '' : missing.result.forModel).toBe(
      'Invalid input for Edit:\n- old_string: required (expected string)\nFix this field and call Edit again.',
    );
    const notObject = registry.parse('Glob', 'src');
    expect(notObject.ok ? '' : notObject.result.forModel).toBe(
      'Invalid input for Glob:\n- (input): expected object, received string\nFix this field and call Glob again.',
    );
    const badEnum = registry.parse('Grep', { pattern: 'x', output_mode: 'lines' });
    expect(badEnum.ok ? '' : badEnum.result.forModel).toBe(
      'Invalid input for Grep:\n- output_mode: expected one of "content", "files_with_matches", "count"\nFix this field and call Grep again.',
    );
  });

  it('registry - coerces numeric and boolean strings a model may send', () => {
    expect(registry.parse('Read', { file_path: 'a', offset: '3', limit: ' 10 ' })).toEqual({
      ok: true,
      input: { file_path: 'a', offset: 3, limit: 10 },
    });
    expect(registry.parse('Grep', { pattern: 'x', '-i': 'true', '-C': '2' })).toEqual({
      ok: true,
      input: { pattern: 'x', '-i': true, '-C': 2 },
    });
    expect(registry.parse('Read', { file_path: 'a', offset: 'three' }).ok).toBe(false);
  });

  it('registry - execute never throws: a throwing tool becomes an internal error result', async () => {
    const boom = toolNamed('Boom', async () => Promise.reject(new Error('disk on fire')));
    const repo = makeRepo();
    const r = await createRegistry([boom]).execute('Boom', {}, repo.ctx);
    expect(r).toEqual({ isError: true, errorKind: 'internal', forModel: 'Boom failed with an internal error: disk on fire' });
    expect(await createRegistry([boom]).execute('Nope', {}, repo.ctx)).toMatchObject({ errorKind: 'unknown_tool' });
  });

  it('registry - applies the output budget to every result', async () => {
    const big = toolNamed('Big', async () => ({ forModel: 'y'.repeat(50_000), isError: false }));
    const repo = makeRepo();
    const r = await createRegistry([big]).execute('Big', {}, { ...repo.ctx, callId: 'toolu_7' });
    expect(r.outputPath).toBe(`${repo.runDir}/tool-output/toolu_7.txt`);
    expect(r.forModel.length).toBeLessThan(30_000);
  });

  it('registry - refuses two tools with one name', () => {
    expect(() => createRegistry([...defaultTools(), ...defaultTools()])).toThrow('createRegistry: tool "Read" is registered twice');
  });
});
