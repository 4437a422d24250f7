/**
 * Instruction files as Claude Code reads them (seed 002 §13, issue 26): HTML comments stripped, `@path`
 * imports expanded inside the repository (bounded, cycles and outside paths refused and said), code left
 * as written, and the total cap says what was cut. Through the loop: the model's first request carries it.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createContextManager } from '../../src/agent/context/index.js';
import { loadInstructions } from '../../src/agent/context/instructions.js';
import { MAX_IMPORT_DEPTH, stripHtmlComments } from '../../src/agent/context/instruction-text.js';
import { loadRuleFiles, withStartupRules } from '../../src/agent/context/rule-files.js';
import { createScriptedModel, text, toolUse } from '../../src/model/scripted.js';
import { stubToolbox } from '../agent/helpers.js';
import { loopDeps, runLoop, task } from './helpers.js';
import { tempDir } from '../kit/temp.js';

describe('instruction files', () => {
  let dir: string;
  let root: string;
  const write = (p: string, t: string): void => {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), t);
  };
  beforeAll(() => {
    dir = tempDir('proofpr-instr-');
    root = join(dir, 'repo');
    mkdirSync(root);
    writeFileSync(join(dir, 'outside.md'), 'SECRET OUTSIDE TEXT');
    write(
      'AGENTS.md',
      [
        '# Rules',
        '<!-- maintainers: remember to update the release notes -->',
        'Follow @docs/style.md for code style.',
        'See @docs/missing.md and @../outside.md and @docs/link.md.',
        '```sh',
        '<!-- kept: inside a code block -->',
        'npm run x @docs/style.md',
        '```',
        'Mail owner@example.com; inline `@docs/style.md` stays.',
      ].join('\n'),
    );
    write('docs/style.md', '## Style\nTwo spaces. <!-- hidden note -->\nAlso @nested.md');
    write('docs/nested.md', 'Nested rule: no default exports. And back to @style.md');
    symlinkSync(join(dir, 'outside.md'), join(root, 'docs/link.md'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stripHtmlComments - block and inline comments go, code keeps them', () => {
    expect(stripHtmlComments('a\n<!-- one\ntwo -->\nb <!-- c --> d\n```\n<!-- x -->\n```\n')).toBe('a\nb  d\n```\n<!-- x -->\n```\n');
  });

  it('loadInstructions - @path imports expand in place, nested, once per chain; outside paths and cycles are said, not read', async () => {
    const [file] = await loadInstructions(root, []);
    const c = file!.content;
    expect(c).not.toContain('maintainers: remember');
    expect(c).not.toContain('hidden note');
    expect(c).toContain(
      'Follow <imported path="docs/style.md">\n## Style\nTwo spaces. \nAlso <imported path="docs/nested.md">\nNested rule: no default exports.',
    );
    expect(c).toContain('@style.md not imported: it imports itself (a cycle)');
    expect(c).not.toContain('SECRET OUTSIDE TEXT');
    expect(c).toContain('@../outside.md not imported: it is outside the repository');
    expect(c).toContain('@docs/link.md not imported: it is outside the repository');
    expect(c).toContain('See @docs/missing.md');
    expect(c).toContain('<!-- kept: inside a code block -->\nnpm run x @docs/style.md');
    expect(c).toContain('inline `@docs/style.md` stays');
    expect(c).toContain('owner@example.com');
  });

  it('loadInstructions - imports are bounded in depth', async () => {
    const deep = join(dir, 'deep');
    mkdirSync(deep);
    for (let i = 0; i <= MAX_IMPORT_DEPTH + 1; i++) writeFileSync(join(deep, `l${i}.md`), `level ${i} @l${i + 1}.md`);
    writeFileSync(join(deep, `l${MAX_IMPORT_DEPTH + 2}.md`), 'bottom');
    writeFileSync(join(deep, 'AGENTS.md'), 'start @l0.md');
    const [file] = await loadInstructions(deep, []);
    expect(file!.content).toContain(`level ${MAX_IMPORT_DEPTH - 2}`);
    expect(file!.content).not.toContain(`level ${MAX_IMPORT_DEPTH}`);
    expect(file!.content).toContain(`not imported: imports go ${MAX_IMPORT_DEPTH} levels deep at most`);
  });

  it('loop - the first request carries the imported text in the system prompt, the comment does not reach it; the cap says what was cut', async () => {
    const context = await createContextManager({ root, toolNames: ['Read'], task, mode: 'fix', gatesEnabled: [] });
    const model = createScriptedModel([{ content: [text('done')] }]);
    await runLoop(loopDeps({ root, model, context, toolbox: stubToolbox({}) }), 'go');
    const system = model.requests[0]!.system.map((b) => b.text).join('\n');
    expect(system).toContain('Nested rule: no default exports.');
    expect(system).not.toContain('remember to update the release notes');
    const small = await createContextManager({ root, toolNames: ['Read'], task, mode: 'fix', gatesEnabled: [], instructionsMaxBytes: 60 });
    const cut = small
      .system()
      .map((b) => b.text)
      .join('\n');
    expect(cut).toMatch(/\[cut to fit: \d+ bytes in total; Read AGENTS\.md for the rest\]/);
  });

  it('loop - a subfolder AGENTS.md joins the conversation after the first Read in that folder, once', async () => {
    write('src/api/AGENTS.md', 'API rule: validate every input. <!-- not for the model -->');
    write('src/api/handler.ts', 'export const h = 1;\n');
    const context = await createContextManager({ root, toolNames: ['Read'], task, mode: 'fix', gatesEnabled: [] });
    const model = createScriptedModel([
      { content: [toolUse('Read', { file_path: 'src/api/handler.ts' }, 'r1')] },
      { content: [toolUse('Read', { file_path: join(root, 'src/api/handler.ts') }, 'r2')] },
      { content: [text('done')] },
    ]);
    await runLoop(
      loopDeps({ root, model, context, toolbox: stubToolbox({ Read: () => ({ forModel: '1\texport const h = 1;', isError: false }) }) }),
      'go',
    );
    const [first, second, third] = model.requests;
    expect(JSON.stringify(first!.system)).not.toContain('API rule');
    const afterRead = JSON.stringify(second!.messages.at(-1));
    expect(afterRead).toContain('<instructions path=\\"src/api/AGENTS.md\\">');
    expect(afterRead).toContain('API rule: validate every input.');
    expect(afterRead).not.toContain('not for the model');
    expect(JSON.stringify(third!.messages).split('API rule').length - 1).toBe(1);
  });
  it('loop - .claude/rules: a rule without paths is in the system prompt; a paths: rule joins after the first Read of a matching file, once', async () => {
    write('.claude/rules/always.md', 'ALWAYS RULE: run the linter. <!-- not for the model -->');
    write('.claude/rules/frontend/tsx.md', '---\npaths:\n  - "src/ui/**/*.tsx"\n---\nTSX RULE: hooks at the top.');
    write('.claude/rules/sql.md', '---\npaths: "**/*.sql"\n---\nSQL RULE: no SELECT *.');
    write('src/ui/App.tsx', 'export const App = 1;\n');
    write('src/api/handler.ts', 'export const h = 1;\n');
    const context = await createContextManager({ root, toolNames: ['Read'], task, mode: 'fix', gatesEnabled: [] });
    expect(context.instructions.map((f) => f.path)).toContain('.claude/rules/always.md');
    const model = createScriptedModel([
      { content: [toolUse('Read', { file_path: 'src/api/handler.ts' }, 'r1')] },
      { content: [toolUse('Read', { file_path: 'src/ui/App.tsx' }, 'r2')] },
      { content: [toolUse('Read', { file_path: join(root, 'src/ui/App.tsx') }, 'r3')] },
      { content: [text('done')] },
    ]);
    await runLoop(
      loopDeps({ root, model, context, toolbox: stubToolbox({ Read: () => ({ forModel: '1\texport const x = 1;', isError: false }) }) }),
      'go',
    );
    const [first, second, third, fourth] = model.requests;
    const system = JSON.stringify(first!.system);
    expect(system).toContain('<instructions path=\\".claude/rules/always.md\\">');
    expect(system).toContain('ALWAYS RULE: run the linter.');
    expect(system).not.toContain('not for the model');
    expect(system).not.toContain('TSX RULE');
    expect(JSON.stringify(second!.messages)).not.toContain('TSX RULE');
    const afterRead = JSON.stringify(third!.messages.at(-1));
    expect(afterRead).toContain('<instructions path=\\".claude/rules/frontend/tsx.md\\">');
    expect(afterRead).toContain('Rules for files matching src/ui/**/*.tsx, loaded because you read src/ui/App.tsx');
    expect(afterRead).toContain('TSX RULE: hooks at the top.');
    expect(afterRead).not.toContain('paths:');
    expect(JSON.stringify(fourth!.messages).split('TSX RULE').length - 1).toBe(1);
    expect(JSON.stringify(model.requests)).not.toContain('SQL RULE');
  });
  it('withStartupRules - rules without paths share the cap with the chain: the one that does not fit is cut and marked', async () => {
    const chain = [{ path: 'AGENTS.md', content: 'x'.repeat(90), bytes: 90, truncated: false }];
    const rules = await loadRuleFiles(root);
    const out = withStartupRules(chain, rules, 100);
    expect(out.map((f) => f.path)).toEqual(['AGENTS.md', '.claude/rules/always.md']);
    expect(out[1]).toMatchObject({ content: 'ALWAYS RUL', truncated: true });
  });
});
