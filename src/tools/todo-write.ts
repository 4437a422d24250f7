import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { descriptions } from './descriptions.js';

const input = z.strictObject({
  todos: z
    .array(
      z.object({
        content: z.string().min(1).describe('What the step is, in imperative form ("Fix the date parser").'),
        status: z.enum(['pending', 'in_progress', 'completed']),
      }),
    )
    .describe('The whole plan; each call replaces the previous list.'),
});

export const todoWriteTool = defineTool({
  name: 'TodoWrite',
  description: descriptions.TodoWrite,
  input,
  kind: 'think',
  async execute({ todos }) {
    const n = (s: string) => todos.filter((t) => t.status === s).length;
    const inProgress = n('in_progress');
    const parts = [`${n('completed')} completed`, `${inProgress} in progress`, `${n('pending')} pending`];
    let text = `Todo list updated (${todos.length} item${todos.length === 1 ? '' : 's'}: ${parts.join(', ')}).`;
    if (inProgress > 1)
      text += ` Note: ${inProgress} items are in_progress; keep exactly one in progress at a time and mark the others pending or completed.`;
    if (todos.length > 0 && n('completed') === todos.length) text += ' All items are completed.';
    return {
      forModel: text,
      forHuman: `Plan: ${parts.join(', ')}`,
      isError: false,
      effects: [{ type: 'todos', todos: todos.map((t) => ({ content: t.content, status: t.status })) }],
    };
  },
});
