import { describe, expect, it } from '@jest/globals';
import { CONFIG_SCHEMA_ID, configJsonSchema } from '../../src/config/config-reference.js';

/** The editor schema names itself and accepts the documented `_extends` key (resolved before validation). */
describe('config JSON Schema', () => {
  const schema = configJsonSchema() as {
    $id?: string;
    $schema?: string;
    additionalProperties?: unknown;
    properties: Record<string, { type?: string; pattern?: string }>;
  };

  it('has an $id next to $schema', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(CONFIG_SCHEMA_ID);
  });

  it('accepts _extends (a string such as org/.github:proofpr.yml) and still rejects unknown keys', () => {
    const ext = schema.properties._extends!;
    expect(ext.type).toBe('string');
    const re = new RegExp(ext.pattern!);
    for (const ok of ['.github', 'org/.github', 'org/shared:configs/proofpr.yml']) expect(re.test(ok)).toBe(true);
    expect(re.test('a/b/c')).toBe(false);
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toContain('provider');
  });
});
