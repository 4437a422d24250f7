import { describe, it, expect } from '@jest/globals';
import { skillTool } from '../../src/agent/context/skill-tool.js';
import type { ToolContext } from '../../src/tools/define-tool.js';
import { silentLogger } from '../../src/log.js';
import { fixtureRepo } from './helpers.js';

function ctxFor(root: string): ToolContext {
  return { root, runDir: root, callId: 'c1', fileState: {} as ToolContext['fileState'], exec: {} as ToolContext['exec'], signal: new AbortController().signal, logger: silentLogger };
}

describe('Skill tool', () => {
  it('Skill - returns the SKILL.md body without its front matter', async () => {
    const repo = fixtureRepo();
    try {
      const res = await skillTool.execute(skillTool.input.parse({ name: 'release' }), ctxFor(repo.root));
      expect(res.isError).toBe(false);
      expect(res.forModel).toContain('# Release procedure');
      expect(res.forModel).not.toContain('description:');
      expect(skillTool.readOnly).toBe(true);
    } finally {
      repo.cleanup();
    }
  });

  it('Skill - an unknown name is an error listing the available skills', async () => {
    const repo = fixtureRepo();
    try {
      const res = await skillTool.execute({ name: 'deploy' }, ctxFor(repo.root));
      expect(res.isError).toBe(true);
      expect(res.errorKind).toBe('not_found');
      expect(res.forModel).toContain('db-migration, release');
    } finally {
      repo.cleanup();
    }
  });

  it('Skill - input must name a skill', () => {
    expect(skillTool.input.safeParse({}).success).toBe(false);
  });
});
