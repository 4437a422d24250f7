/** The Skill tool: loads one skill's SKILL.md body on demand (the prompt only lists names and descriptions). */
import { z } from 'zod';
import { defineTool, type ToolDefinition } from './define-tool.js';
import { descriptions } from './descriptions.js';

const MAX_BODY_BYTES = 30_000;

/** A skill as the run loaded it: the tool answers from these bodies, read from where the index was read. */
export interface SkillEntry {
  name: string;
  /** Repository-relative path of its SKILL.md. */
  path: string;
  /** The SKILL.md text after its front matter. */
  body: string;
}

const input = z.object({ name: z.string().min(1).describe('the skill name as listed in the system prompt') }).strict();

/**
 * The Skill tool over the skills listed in the system prompt. The bodies are the ones loaded with that
 * index (e.g. from a PR's base branch), never re-read from the worktree the model can change.
 */
export function skillTool(skills: readonly SkillEntry[]): ToolDefinition<typeof input> {
  return defineTool({
    name: 'Skill',
    description: descriptions.Skill,
    input,
    kind: 'read',
    async execute({ name }) {
      const skill = skills.find((s) => s.name === name);
      if (!skill) {
        const names = skills.map((s) => s.name).join(', ') || '(none)';
        return { forModel: `No skill named "${name}". Available skills: ${names}.`, isError: true, errorKind: 'not_found' };
      }
      let body = skill.body.trim();
      if (Buffer.byteLength(body, 'utf8') > MAX_BODY_BYTES) {
        body = `${Buffer.from(body, 'utf8')
          .subarray(0, MAX_BODY_BYTES)
          .toString('utf8')
          .replace(/\uFFFD$/, '')}\n\n[cut: Read ${skill.path} for the rest]`;
      }
      return {
        forModel: `<skill name="${skill.name}" path="${skill.path}">\n${body}\n</skill>`,
        forHuman: `loaded skill ${skill.name}`,
        isError: false,
        meta: { skill: skill.name, path: skill.path },
      };
    },
  });
}
