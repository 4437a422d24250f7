import { z } from 'zod';
import type { ToolSchema } from '../model/model-client.js';
import { NO_ACCESS, type ToolAccess, type ToolContext, type ToolDefinition, type ToolKind, type ToolResult } from './define-tool.js';
import { budgetOutput } from './output-budget.js';
import { coerceInput, describeIssues } from './lib/input-corrections.js';
import { toolSearchTool } from './tool-search.js';

export type ParseResult = { ok: true; input: unknown } | { ok: false; result: ToolResult };

export interface ToolRegistry {
  /** Names of the tools the model sees now (core tools, then the deferred tools loaded so far), in order. */
  names(): string[];
  /**
   * The tool list sent to the model: byte-stable across calls (same objects' content, same key order).
   * Deferred tools (MCP) join it, at the end, once ToolSearch loaded them.
   */
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

function notLoaded(name: string): ToolResult {
  return {
    forModel: `${name} is available but not loaded yet. Call ToolSearch with query "select:${name}" first, then call ${name} in your next turn.`,
    isError: true,
    errorKind: 'unknown_tool',
  };
}

/** The JSON schema the model sees: the tool's own (an MCP server's), else generated from its zod input. */
function jsonSchemaOf(t: ToolDefinition): Json {
  return deepFreeze(clean(t.inputSchema ?? z.toJSONSchema(t.input, { io: 'input' })) as Json);
}

/**
 * The tools of a run. Deferred tools (MCP server tools) are not sent until loaded: when there are any,
 * the registry adds a ToolSearch tool that finds and loads them.
 */
export function createRegistry(given: ToolDefinition[]): ToolRegistry {
  const deferred = given.filter((t) => t.deferred === true);
  const loaded: string[] = [];
  const catalog = {
    deferred: () => [...deferred],
    load(names: string[]): string[] {
      const fresh = names.filter((n) => deferred.some((t) => t.name === n) && !loaded.includes(n));
      loaded.push(...fresh);
      return fresh;
    },
  };
  const tools = deferred.length ? [...given, toolSearchTool(catalog) as ToolDefinition] : given;
  const byName = new Map<string, ToolDefinition>();
  for (const t of tools) {
    if (byName.has(t.name)) throw new Error(`createRegistry: tool "${t.name}" is registered twice`);
    byName.set(t.name, t);
  }
  const core = tools.filter((t) => t.deferred !== true).map((t) => t.name);
  const jsonSchemas = new Map<string, Json>();
  for (const t of tools) jsonSchemas.set(t.name, jsonSchemaOf(t));
  const schemaOf = new Map<string, ToolSchema>(
    tools.map((t) => [t.name, deepFreeze({ name: t.name, description: t.description, input_schema: jsonSchemas.get(t.name) as Json })]),
  );
  const visible = (): string[] => [...core, ...loaded];

  return {
    names: visible,
    schemas: () => visible().map((n) => ({ ...(schemaOf.get(n) as ToolSchema) })),
    get: (name) => byName.get(name),
    kindOf: (name) => byName.get(name)?.kind,
    access: (name, input) => byName.get(name)?.access?.(input) ?? NO_ACCESS,

    parse(name, rawInput) {
      const tool = byName.get(name);
      if (!tool) return { ok: false, result: unknownTool(name, visible()) };
      if (tool.deferred && !loaded.includes(name)) return { ok: false, result: notLoaded(name) };
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
      if (!tool) return unknownTool(name, visible());
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
