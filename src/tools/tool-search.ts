import { z } from 'zod';
import { defineTool, NO_ACCESS, type ToolDefinition } from './define-tool.js';
import { descriptions } from './descriptions.js';
import { wholeNumber } from './lib/whole-number.js';

/** The deferred tools of a registry: what ToolSearch finds and loads. */
export interface DeferredCatalog {
  /** Every deferred tool, loaded or not. */
  deferred(): ToolDefinition[];
  /** Marks tools as loaded (their schemas are sent from the next request on); returns the names newly loaded. */
  load(names: string[]): string[];
}

export const TOOL_SEARCH_DEFAULT_RESULTS = 5;

const input = z.strictObject({
  query: z.string().min(1).describe('Words describing the tool you need, or "select:<name>[,<name>…]" for exact names.'),
  max_results: wholeNumber(1, 20, `How many tools to load at most (default ${TOOL_SEARCH_DEFAULT_RESULTS}).`),
});

const words = (s: string): string[] =>
  s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** Tools ranked by the query's words: a word in the name counts 3, in the description 1. */
function rank(tools: ToolDefinition[], query: string): ToolDefinition[] {
  const q = words(query);
  const scored = tools.map((t) => {
    const name = new Set(words(t.name));
    const description = t.description.toLowerCase();
    const score = q.reduce((n, w) => n + (name.has(w) ? 3 : 0) + (description.includes(w) ? 1 : 0), 0);
    return { t, score };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.t.name.localeCompare(b.t.name))
    .map((s) => s.t);
}

/** "select:a,b": exactly those tools (unknown names reported). */
function select(tools: ToolDefinition[], names: string[]): { found: ToolDefinition[]; missing: string[] } {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const found = names.flatMap((n) => byName.get(n) ?? []);
  return { found, missing: names.filter((n) => !byName.has(n)) };
}

/** A summary of the servers behind the deferred tools, for ToolSearch's description: "docs (50 tools)". */
export function deferredSummary(tools: ToolDefinition[]): string {
  const counts = new Map<string, number>();
  for (const t of tools) {
    const server = t.name.split('__')[1] ?? t.name;
    counts.set(server, (counts.get(server) ?? 0) + 1);
  }
  return [...counts].map(([s, n]) => `${s} (${n} tool${n === 1 ? '' : 's'})`).join(', ');
}

/**
 * ToolSearch: finds deferred tools by words or exact names and loads them; their schemas are sent from
 * the next request on. The description names the servers and how many tools each has, not the tools:
 * the first request carries the core tools plus this one.
 */
export function toolSearchTool(catalog: DeferredCatalog) {
  return defineTool({
    name: 'ToolSearch',
    description: `${descriptions.ToolSearch}\n\nServers with tools to load: ${deferredSummary(catalog.deferred())}.`,
    input,
    kind: 'think',
    access: () => NO_ACCESS,
    async execute({ query, max_results }) {
      const all = catalog.deferred();
      const sel = query.startsWith('select:')
        ? select(
            all,
            query
              .slice(7)
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
          )
        : undefined;
      const found = (sel ? sel.found : rank(all, query)).slice(0, max_results ?? TOOL_SEARCH_DEFAULT_RESULTS);
      const missing = sel?.missing.length ? `\nNo tool is named: ${sel.missing.join(', ')}.` : '';
      if (found.length === 0)
        return {
          forModel: `No tool matches "${query}".${missing} Try other words, or the server's name.`,
          isError: false,
          meta: { loaded: [] },
        };
      catalog.load(found.map((t) => t.name));
      const lines = found.map((t) => `- ${t.name}: ${t.description.split('\n')[0] ?? ''}`);
      return {
        forModel: `Loaded ${found.length} tool${found.length === 1 ? '' : 's'}; call ${found.length === 1 ? 'it' : 'them'} from your next turn on:\n${lines.join('\n')}${missing}`,
        isError: false,
        meta: { loaded: found.map((t) => t.name) },
      };
    },
  });
}
