import { z } from 'zod';
import type { ToolSchema } from '../model/model-client.js';
import { NO_ACCESS, type ToolAccess, type ToolContext, type ToolDefinition, type ToolKind, type ToolResult } from './define-tool.js';
import { budgetOutput } from './output-budget.js';
import { coerceInput, describeIssues } from './lib/input-corrections.js';

export type ParseResult = { ok: true; input: unknown } | { ok: false; result: ToolResult };

export interface ToolRegistry {
  /** Tool names in registration order. */
  names(): string[];
  /** The tool list sent to the model: byte-stable across calls (same objects' content, same key order). */
  schemas(): ToolSchema[];
  get(name: string): ToolDefinition | undefined;
  /** What the named tool is; undefined for a name that is not registered. */
  kindOf(name: string): ToolKind | undefined;
  /** What a call with this validated input touches (nothing for an unknown tool). */
  access(name: string, input: unknown): ToolAccess;
  /** Validate (after coercing "3" → 3, "true" → true) and answer bad input with field-level corrections. */
  parse(name: string, rawInput: unknown): ParseResult;
  /** Run a parsed input. Never throws; every result goes through the output budget. */
  execute(name: string, input: unknown, ctx: ToolContext): Promise<ToolResult>;
}

type Json = Record<string, unknown>;

/** JSON schema for the model: no `$schema`, no ±MAX_SAFE_INTEGER bounds zod adds to ints. */
function clean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(clean);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === '$schema') continue;
    if ((k === 'maximum' && v === Number.MAX_SAFE_INTEGER) || (k === 'minimum' && v === Number.MIN_SAFE_INTEGER)) continue;
    out[k] = clean(v);
  }
  return out;
}

function deepFreeze<T>(o: T): T {
  if (o !== null && typeof o === 'object') {
    for (const v of Object.values(o as Json)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

function unknownTool(name: string, valid: string[]): ToolResult {
  return {
    forModel: `Unknown tool "${name}". Valid tools: ${valid.join(', ')}. Call one of those by its exact name.`,
    isError: true,
    errorKind: 'unknown_tool',
  };
}

export function createRegistry(tools: ToolDefinition[]): ToolRegistry {
  const byName = new Map<string, ToolDefinition>();
  for (const t of tools) {
    if (byName.has(t.name)) throw new Error(`createRegistry: tool "${t.name}" is registered twice`);
    byName.set(t.name, t);
  }
  const names = [...byName.keys()];
  const jsonSchemas = new Map<string, Json>();
  for (const t of tools) jsonSchemas.set(t.name, deepFreeze(clean(z.toJSONSchema(t.input, { io: 'input' })) as Json));
  const schemaList: ToolSchema[] = tools.map((t) =>
    deepFreeze({ name: t.name, description: t.description, input_schema: jsonSchemas.get(t.name) as Json }),
  );

  return {
    names: () => [...names],
    schemas: () => schemaList.map((s) => ({ ...s })),
    get: (name) => byName.get(name),
    kindOf: (name) => byName.get(name)?.kind,
    access: (name, input) => byName.get(name)?.access?.(input) ?? NO_ACCESS,

    parse(name, rawInput) {
      const tool = byName.get(name);
      if (!tool) return { ok: false, result: unknownTool(name, names) };
      const schema = jsonSchemas.get(name) as Json & { properties?: Record<string, Json> };
      const coerced = coerceInput(rawInput, schema);
      const res = tool.input.safeParse(coerced);
      if (res.success) return { ok: true, input: res.data };
      const fields = Object.keys(schema.properties ?? {});
      const lines = describeIssues(res.error.issues, coerced, fields);
      return {
        ok: false,
        result: {
          forModel: `Invalid input for ${name}:\n${lines.map((l) => `- ${l}`).join('\n')}\nFix ${lines.length > 1 ? 'these fields' : 'this field'} and call ${name} again.`,
          isError: true,
          errorKind: 'invalid_input',
        },
      };
    },

    async execute(name, input, ctx) {
      const tool = byName.get(name);
      if (!tool) return unknownTool(name, names);
      let result: ToolResult;
      try {
        result = await tool.execute(input, ctx);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        ctx.logger.error({ tool: name, err: message }, 'tool threw');
        result = { forModel: `${name} failed with an internal error: ${message}`, isError: true, errorKind: 'internal' };
      }
      const budgeted = budgetOutput(result.forModel, {
        runDir: ctx.runDir,
        callId: ctx.callId,
        ...(result.outputPath ? { savedPath: result.outputPath } : {}),
      });
      if (budgeted.outputPath === undefined) {
        const { outputPath: _dropped, ...rest } = result;
        return rest;
      }
      const outputPath = budgeted.outputPath;
      const effects = result.effects?.map((e) => (e.type === 'exec' ? { ...e, outputPath } : e));
      return { ...result, forModel: budgeted.text, outputPath, ...(effects ? { effects } : {}) };
    },
  };
}
