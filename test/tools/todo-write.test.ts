import { describe, it, expect } from '@jest/globals';
import { makeRepo, call } from './helpers/context.js';

describe('TodoWrite', () => {
  const repo = makeRepo();
  it('todo-write - confirms the list and returns it as its effect', async () => {
    const todos = [
      { content: 'Read the parser', status: 'completed' },
      { content: 'Fix the bug', status: 'in_progress' },
      { content: 'Run the tests', status: 'pending' },
    ];
    const r = await call(repo.ctx, 'TodoWrite', { todos });
    expect(r).toEqual({
      isError: false,
      forModel: 'Todo list updated (3 items: 1 completed, 1 in progress, 1 pending).',
      forHuman: 'Plan: 1 completed, 1 in progress, 1 pending',
      effects: [{ type: 'todos', todos }],
    });
  });

  it('todo-write - says so when more than one item is in progress', async () => {
    const r = await call(repo.ctx, 'TodoWrite', {
      todos: [
        { content: 'a', status: 'in_progress' },
        { content: 'b', status: 'in_progress' },
      ],
    });
    expect(r.forModel).toBe(
      'Todo list updated (2 items: 0 completed, 2 in progress, 0 pending). Note: 2 items are in_progress; keep exactly one in progress at a time and mark the others pending or completed.',
    );
    expect(r.isError).toBe(false);
  });

  it('todo-write - accepts a JSON-encoded list and drops unknown item fields', async () => {
    const r = await call(repo.ctx, 'TodoWrite', { todos: JSON.stringify([{ content: 'a', status: 'completed', activeForm: 'Doing a' }]) });
    expect(r.effects).toEqual([{ type: 'todos', todos: [{ content: 'a', status: 'completed' }] }]);
    expect(r.forModel).toBe('Todo list updated (1 item: 1 completed, 0 in progress, 0 pending). All items are completed.');
  });

  it('todo-write - refuses a bad status with the field path', async () => {
    const r = await call(repo.ctx, 'TodoWrite', { todos: [{ content: 'a', status: 'done' }] });
    expect(r.forModel).toBe(
      'Invalid input for TodoWrite:\n- todos.0.status: expected one of "pending", "in_progress", "completed"\nFix this field and call TodoWrite again.',
    );
  });
});
