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

/** Where the schema is published (the `$id`; `proofpr init` points editors at it, or at the installed copy). */
export const CONFIG_SCHEMA_ID = 'https://raw.githubusercontent.com/proofpr/proofpr/main/docs/proofpr.schema.json';

const EXTENDS_PROPERTY: Json = {
  type: 'string',
  pattern: '^([A-Za-z0-9_.-]+/)?[A-Za-z0-9_.-]+(:.+)?$',
  description:
    "[owner/]repo[:path.yml]: load another repository's config first (its own _extends chain too), then this file's keys over it; resolved when proofpr reads the config through GitHub (the App, the Action, run --github-repo, sweep with a GitHub target)",
};

/**
 * The JSON Schema of .github/proofpr.yml (for editors): the zod schema's, with an `$id` and the `_extends`
 * key, which the loader resolves before validation (so the zod schema itself never sees it).
 */
export function configJsonSchema(): Json {
  const generated = z.toJSONSchema(repoConfigSchema, { io: 'input' }) as Json;
  const { $schema, ...rest } = generated;
  const properties = { _extends: EXTENDS_PROPERTY, ...(rest.properties as Record<string, Json>) };
  return { $schema, $id: CONFIG_SCHEMA_ID, title: 'proofpr configuration (.github/proofpr.yml)', ...rest, properties };
}
