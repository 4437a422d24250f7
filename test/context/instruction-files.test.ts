/**
 * Instruction files as Claude Code reads them (seed 002 §13, issue 26): HTML comments stripped, `@path`
 * imports expanded inside the repository (bounded, cycles and outside paths refused and said), code left
 * as written, and the total cap says what was cut. Through the loop: the model's first request carries it.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { LoadedContextManager } from '../../src/agent/context/index.js';
import { loadInstructions } from '../../src/agent/context/instructions.js';
import { MAX_IMPORT_DEPTH, stripHtmlComments } from '../../src/agent/context/instruction-text.js';
import { loadRuleFiles, withStartupRules } from '../../src/agent/context/rule-files.js';
import { createScriptedModel, text, toolUse } from '../../src/model/scripted.js';
import { stubToolbox } from '../agent/helpers.js';
import { contextManager, loopDeps, runLoop } from './helpers.js';
import { tempDir } from '../kit/temp.js';
import { FAKE_AWS_ENV, FAKE_AWS_SECRET } from '../kit/fake-secrets.js';

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
        'Deploy keys: @config/deploy.env',
      ].join('\n'),
    );
    write('config/deploy.env', FAKE_AWS_ENV);
    write('docs/style.md', '## Style\nTwo spaces. <!-- hidden note -->\nAlso @nested.md');
    write('docs/nested.md', 'Nested rule: no default exports. And back to @style.md');
    symlinkSync(join(dir, 'outside.md'), join(root, 'docs/link.md'));
  });

  /** Runs the loop with the real context manager on `root`: the model reads `paths` in turn (each Read answers `answer`), then stops. */
  async function readThrough(context: LoadedContextManager, paths: string[], answer: string) {
    const reads = paths.map((file_path, i) => ({ content: [toolUse('Read', { file_path }, `r${i + 1}`)] }));
    const model = createScriptedModel([...reads, { content: [text('done')] }]);
    const toolbox = stubToolbox({ Read: () => ({ forModel: answer, isError: false }) });
    await runLoop(loopDeps({ root, model, context, toolbox }), 'go');
    return model.requests;
  }

  it('stripHtmlComments - block and inline comments go, code keeps them', () => {
    expect(stripHtmlComments('a\n<!-- one\ntwo -->\nb <!-- c --> d\n```\n<!-- x -->\n```\n')).toBe('a\nb  d\n```\n<!-- x -->\n```\n');
  });

  it('loadInstructions - an @import of a masked file (content matching a secret rule) is said, not read', async () => {
    const [file] = await loadInstructions(root, []);
    expect(file!.content).not.toContain(FAKE_AWS_SECRET);
    expect(file!.content).toMatch(/@config\/deploy\.env not imported: it is masked .*permissions\.readable/);
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
    for (const kept of [
      '@../outside.md not imported: it is outside the repository',
      '@docs/link.md not imported: it is outside the repository',
      'See @docs/missing.md',
      '<!-- kept: inside a code block -->\nnpm run x @docs/style.md',
      'inline `@docs/style.md` stays',
      'owner@example.com',
    ])
      expect(c).toContain(kept);
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
    const [first] = await readThrough(await contextManager(root), [], '');
    const system = first!.system.map((b) => b.text).join('\n');
    expect(system).toContain('Nested rule: no default exports.');
    expect(system).not.toContain('remember to update the release notes');
    const small = await contextManager(root, { instructionsMaxBytes: 60 });
    const cut = small
      .system()
      .map((b) => b.text)
      .join('\n');
    expect(cut).toMatch(/\[cut to fit: \d+ bytes in total; Read AGENTS\.md for the rest\]/);
  });

  it('loop - a subfolder AGENTS.md joins the conversation after the first Read in that folder, once', async () => {
    write('src/api/AGENTS.md', 'API rule: validate every input. <!-- not for the model -->');
    write('src/api/handler.ts', 'export const h = 1;\n');
    const paths = ['src/api/handler.ts', join(root, 'src/api/handler.ts')];
    const [first, second, third] = await readThrough(await contextManager(root), paths, '1\texport const h = 1;');
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
    const context = await contextManager(root);
    expect(context.instructions.map((f) => f.path)).toContain('.claude/rules/always.md');
    const paths = ['src/api/handler.ts', 'src/ui/App.tsx', join(root, 'src/ui/App.tsx')];
    const requests = await readThrough(context, paths, '1\texport const x = 1;');
    const [first, second, third, fourth] = requests;
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
    expect(JSON.stringify(requests)).not.toContain('SQL RULE');
  });
  it('withStartupRules - rules without paths share the cap with the chain: the one that does not fit is cut and marked', async () => {
    const chain = [{ path: 'AGENTS.md', content: 'x'.repeat(90), bytes: 90, truncated: false }];
    const rules = await loadRuleFiles(root);
    const out = withStartupRules(chain, rules, 100);
    expect(out.map((f) => f.path)).toEqual(['AGENTS.md', '.claude/rules/always.md']);
    expect(out[1]).toMatchObject({ content: 'ALWAYS RUL', truncated: true });
  });
});
