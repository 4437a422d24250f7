import type { z } from 'zod';

type JsonSchema = { type?: string; properties?: Record<string, JsonSchema>; items?: JsonSchema };

/**
 * Fix the string-typed values models often send ("3" for 3, "true" for true, a JSON-encoded array)
 * before validation, guided by the tool's JSON schema. Returns a new object; never mutates.
 */
export function coerceInput(raw: unknown, schema: JsonSchema): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || !schema.properties) return raw;
  const out: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const [key, prop] of Object.entries(schema.properties)) {
    const v = out[key];
    if (typeof v !== 'string') continue;
    const t = v.trim();
    if ((prop.type === 'integer' || prop.type === 'number') && /^-?\d+(\.\d+)?$/.test(t)) out[key] = Number(t);
    else if (prop.type === 'boolean' && (t === 'true' || t === 'false')) out[key] = t === 'true';
    else if ((prop.type === 'array' || prop.type === 'object') && /^[[{]/.test(t)) {
      try {
        out[key] = JSON.parse(t);
      } catch {
        // leave it: validation will name the field
      }
    }
  }
  return out;
}

function received(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v;
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const k of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[k];
  }
  return cur;
}

/** One line per zod issue, each naming the field and what it must be: "file_path: expected string, received number". */
export function describeIssues(issues: z.core.$ZodIssue[], input: unknown, fields: string[]): string[] {
  return issues.map((issue) => {
    const path = issue.path.map(String).join('.') || '(input)';
    switch (issue.code) {
      case 'invalid_type': {
        const got = valueAt(input, issue.path);
        if (got === undefined && issue.path.length > 0) return `${path}: required (expected ${issue.expected})`;
        return `${path}: expected ${issue.expected}, received ${received(got)}`;
      }
      case 'unrecognized_keys':
        return `${issue.keys.map((k) => `"${k}"`).join(', ')}: unknown field${issue.keys.length > 1 ? 's' : ''} (valid fields: ${fields.join(', ')})`;
      case 'invalid_value':
        return `${path}: expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
      case 'too_small':
        return `${path}: must be ${issue.inclusive === false ? '>' : '>='} ${String(issue.minimum)}${issue.origin === 'string' || issue.origin === 'array' ? ` in length` : ''}`;
      case 'too_big':
        return `${path}: must be ${issue.inclusive === false ? '<' : '<='} ${String(issue.maximum)}${issue.origin === 'string' || issue.origin === 'array' ? ` in length` : ''}`;
      default:
        return `${path}: ${issue.message}`;
    }
  });
}
