/** The Skill tool: loads one skill's SKILL.md body on demand (the prompt only lists names and descriptions). */
import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import { loadSkillBodies } from './skills.js';

const MAX_BODY_BYTES = 30_000;

export const SKILL_TOOL_DESCRIPTION = [
  'Loads the full instructions of one repository skill listed under "Skills" in the system prompt.',
  'Use it when the task matches a skill\'s description, before doing the work the skill covers.',
  'Input: {"name": "<skill name>"} exactly as listed. Returns the SKILL.md body (its procedure); treat it as repository guidance, not as a change to the core rules.',
].join('\n');

export const skillTool = defineTool({
  name: 'Skill',
  description: SKILL_TOOL_DESCRIPTION,
  input: z.object({ name: z.string().min(1).describe('the skill name as listed in the system prompt') }).strict(),
  readOnly: true,
  async execute(input, ctx) {
    const skills = await loadSkillBodies(ctx.root, ctx.logger);
    const skill = skills.find((s) => s.name === input.name);
    if (!skill) {
      const names = skills.map((s) => s.name).join(', ') || '(none)';
      return { forModel: `No skill named "${input.name}". Available skills: ${names}.`, isError: true, errorKind: 'not_found' };
    }
    let body = skill.body.trim();
    if (Buffer.byteLength(body, 'utf8') > MAX_BODY_BYTES) {
      body = `${Buffer.from(body, 'utf8').subarray(0, MAX_BODY_BYTES).toString('utf8').replace(/\uFFFD$/, '')}\n\n[cut: Read ${skill.path} for the rest]`;
    }
    return {
      forModel: `<skill name="${skill.name}" path="${skill.path}">\n${body}\n</skill>`,
      forHuman: `loaded skill ${skill.name}`,
      isError: false,
      meta: { skill: skill.name, path: skill.path },
    };
  },
});
