/** What the loop needs from a tool registry (src/tools/registry.ts satisfies it). */
import type { ToolSchema } from '../model/model-client.js';
import type { ToolAccess, ToolContext, ToolKind, ToolResult } from '../tools/define-tool.js';

export type ParsedInput = { ok: true; input: unknown } | { ok: false; result: ToolResult };

export interface Toolbox {
  schemas(): ToolSchema[];
  /** What the named tool is (undefined: not registered). */
  kindOf(name: string): ToolKind | undefined;
  /** What a call with this validated input touches. */
  access(name: string, input: unknown): ToolAccess;
  parse(name: string, rawInput: unknown): ParsedInput;
  execute(name: string, input: unknown, ctx: ToolContext): Promise<ToolResult>;
}
