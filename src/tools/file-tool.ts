import { sep } from 'node:path';
import type { z } from 'zod';
import { defineTool, type ToolDefinition, type ToolResult } from './define-tool.js';
import { descriptions } from './descriptions.js';
import { resolvePath } from './resolve-path.js';
import { gitPathProblem } from '../workspace/git-path-rules.js';

type FileInput = z.ZodType<{ file_path: string }>;

/**
 * Read, Write and Edit: a tool on the one file its `file_path` names. That file is what the policy checks
 * (its access), and the description is the tool's own .md.
 */
export function defineFileTool<S extends FileInput>(
  def: Omit<ToolDefinition<S>, 'description' | 'access' | 'name'> & { name: 'Read' | 'Write' | 'Edit' },
): ToolDefinition<S> {
  return defineTool<S>({
    ...def,
    description: descriptions[def.name],
    access: (input) => ({ paths: [{ path: input.file_path, type: 'file' }], patterns: [] }),
  });
}

/**
 * The file Write and Edit change, resolved inside the worktree; or the refusal: a path outside it, in
 * `.git`, or one git cannot commit (gitPathProblem: the work would be lost).
 */
export function committablePath(
  filePath: string,
  root: string,
): { ok: true; abs: string; rel: string } | { ok: false; refusal: ToolResult } {
  const r = resolvePath(filePath, { root });
  if (!r.ok) return { ok: false, refusal: { forModel: r.message, isError: true, errorKind: 'denied' } };
  const why = gitPathProblem(r.rel.split(sep).join('/'));
  if (!why) return { ok: true, abs: r.abs, rel: r.rel };
  const forModel = `${filePath} is refused: git cannot commit this path (${why}), so the work would be lost. Choose another name, without a ".git" look-alike.`;
  return { ok: false, refusal: { forModel, isError: true, errorKind: 'git_path' } };
}
