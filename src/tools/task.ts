import { z } from 'zod';
import { defineTool, NO_ACCESS, type ToolContext, type ToolResult } from './define-tool.js';
import { descriptions } from './descriptions.js';

export const SUBAGENT_TYPES = ['explore', 'plan'] as const;
export type SubagentType = (typeof SUBAGENT_TYPES)[number];

/** What the model asks a sub-agent to do. */
export interface SubagentRequest {
  description: string;
  prompt: string;
  type: SubagentType;
}

/** Runs one sub-agent to its end and answers with its final report (the agent core provides it). */
export type SubagentRunner = (request: SubagentRequest, ctx: ToolContext) => Promise<ToolResult>;

const input = z.strictObject({
  description: z.string().min(1).describe('A short (3-5 words) description of the task.'),
  prompt: z.string().min(1).describe('The task for the sub-agent, complete in itself: it does not see this conversation.'),
  subagent_type: z.enum(SUBAGENT_TYPES).optional().describe('explore (default): find and report facts; plan: return a plan.'),
});

/**
 * The Task tool: a read-only sub-agent in its own context. The tool only carries the request; the agent
 * core runs the sub-agent (its own messages, a copy of the read-file state, a tool subset, budgets,
 * cancellation from the parent). A `read` kind: several Task calls of one turn run concurrently.
 */
export function taskTool(run: SubagentRunner) {
  return defineTool({
    name: 'Task',
    description: descriptions.Task,
    input,
    kind: 'read',
    access: () => NO_ACCESS,
    execute: ({ description, prompt, subagent_type }, ctx) => run({ description, prompt, type: subagent_type ?? 'explore' }, ctx),
  });
}
