import { z } from 'zod';
import { repoConfigSchema } from './repo-config.js';

type Json = { [k: string]: unknown };

function typeOf(s: Json): string {
  if (Array.isArray(s.enum)) return (s.enum as unknown[]).map((v) => JSON.stringify(v)).join(' \\| ');
  if (s.type === 'array') return `list of ${typeOf((s.items as Json) ?? {})}`;
  if (s.type === 'integer') return 'whole number';
  if (typeof s.type === 'string') return s.type;
  return 'value';
}

function walk(s: Json, path: string, rows: string[][]): void {
  const props = s.properties as Record<string, Json> | undefined;
  if (path === 'hooks' && props) {
    // Every hook event takes the same list of entries: one row for the events, then the entry's fields.
    rows.push(['`hooks.<Event>`', 'list', '`[]`', `command hooks per event: ${Object.keys(props).join(', ')}`]);
    const entry = (Object.values(props)[0]?.items as Json | undefined) ?? {};
    for (const [k, v] of Object.entries((entry.properties as Record<string, Json>) ?? {})) walk(v, `hooks.<Event>[].${k}`, rows);
    return;
  }
  if (s.type === 'object' && props) {
    for (const [k, v] of Object.entries(props)) walk(v, path ? `${path}.${k}` : k, rows);
    return;
  }
  if (s.type === 'array' && (s.items as Json | undefined)?.type === 'object') {
    const items = s.items as Json;
    rows.push([`\`${path}\``, 'list', '`[]`', String(s.description ?? '')]);
    for (const [k, v] of Object.entries((items.properties as Record<string, Json>) ?? {})) walk(v, `${path}[].${k}`, rows);
    return;
  }
  const def = s.default === undefined ? '' : `\`${JSON.stringify(s.default)}\``;
  rows.push([`\`${path}\``, typeOf(s), def, String(s.description ?? '').replace(/\|/g, '\\|')]);
}

/** The configuration reference table for the README, generated from the same zod schema that validates. */
export function renderConfigReference(): string {
  const schema = z.toJSONSchema(repoConfigSchema, { io: 'input' }) as Json;
  const rows: string[][] = [];
  walk(schema, '', rows);
  const lines = ['| key | type | default | meaning |', '| --- | --- | --- | --- |', ...rows.map((r) => `| ${r.join(' | ')} |`)];
  return lines.join('\n');
}

/** The JSON Schema of .github/proofpr.yml (for editors). */
export function configJsonSchema(): Json {
  return z.toJSONSchema(repoConfigSchema, { io: 'input' }) as Json;
}
