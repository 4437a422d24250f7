import type { ToolDefinition } from './define-tool.js';
import { readTool } from './read.js';
import { writeTool } from './write.js';
import { editTool } from './edit.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { bashTool } from './bash.js';
import { todoWriteTool } from './todo-write.js';

/** The seven tools of CONTRACT §7, in the order the model sees them. */
export function defaultTools(): ToolDefinition[] {
  return [readTool, writeTool, editTool, globTool, grepTool, bashTool, todoWriteTool] as ToolDefinition[];
}
