/** What the loop needs from a tool registry (src/tools/registry.ts satisfies it). */
import type { ToolSchema } from '../model/model-client.js';
import type { ToolContext, ToolResult } from '../tools/define-tool.js';

export type ParsedInput = { ok: true; input: unknown } | { ok: false; result: ToolResult };

export interface Toolbox {
  schemas(): ToolSchema[];
  isReadOnly(name: string): boolean;
  parse(name: string, rawInput: unknown): ParsedInput;
  execute(name: string, input: unknown, ctx: ToolContext): Promise<ToolResult>;
}
