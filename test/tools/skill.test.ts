import { describe, it, expect } from '@jest/globals';
import { skillTool } from '../../src/tools/skill.js';
import { loadSkillBodies } from '../../src/agent/context/skills.js';
import { fixtureRepo } from '../context/helpers.js';
import { toolContext } from './helpers/context.js';

const ctxFor = (root: string) => toolContext(root, root);

describe('Skill tool', () => {
  it('Skill - returns the SKILL.md body without its front matter', async () => {
    const repo = fixtureRepo();
    try {
      const tool = skillTool(await loadSkillBodies(repo.root));
      const res = await tool.execute(tool.input.parse({ name: 'release' }), ctxFor(repo.root));
      expect(res.isError).toBe(false);
      expect(res.forModel).toContain('# Release procedure');
      expect(res.forModel).not.toContain('description:');
      expect(tool.kind).toBe('read');
    } finally {
      repo.cleanup();
    }
  });

  it('Skill - an unknown name is an error listing the available skills', async () => {
    const repo = fixtureRepo();
    try {
      const tool = skillTool(await loadSkillBodies(repo.root));
      const res = await tool.execute({ name: 'deploy' }, ctxFor(repo.root));
      expect(res.isError).toBe(true);
      expect(res.errorKind).toBe('not_found');
      expect(res.forModel).toContain('db-migration, release');
    } finally {
      repo.cleanup();
    }
  });

  it('Skill - answers from the skills it was given, not from the worktree the model can change', async () => {
    const tool = skillTool([{ name: 'release', path: '.proofpr/skills/release/SKILL.md', body: '# From the base branch' }]);
    const res = await tool.execute({ name: 'release' }, ctxFor('/nonexistent'));
    expect(res.forModel).toContain('# From the base branch');
  });

  it('Skill - input must name a skill', () => {
    expect(skillTool([]).input.safeParse({}).success).toBe(false);
  });
});
