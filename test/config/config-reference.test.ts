import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { configJsonSchema, renderConfigReference } from '../../src/config/config-reference.js';

describe('configuration reference', () => {
  it('config docs - the docs/configuration.md table and the JSON Schema are generated from the zod schema and up to date', () => {
    const readme = readFileSync('docs/configuration.md', 'utf8');
    expect(readme).toContain(`<!-- config-reference:start -->\n${renderConfigReference()}\n<!-- config-reference:end -->`);
    expect(JSON.parse(readFileSync('docs/proofpr.schema.json', 'utf8'))).toEqual(configJsonSchema());
  });

  it('config docs - every leaf key has a description', () => {
    const rows = renderConfigReference().split('\n').slice(2);
    const bare = rows.filter((r) => r.trimEnd().endsWith('|  |'));
    expect(bare).toEqual([]);
  });
});
