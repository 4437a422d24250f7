#!/usr/bin/env node
// Writes the configuration reference (generated from the zod schema) into docs/configuration.md between markers,
// and the JSON Schema to docs/proofpr.schema.json. `--check` fails when either is out of date.
// Needs the build (npm run build).
import { readFileSync, writeFileSync } from 'node:fs';
import { renderConfigReference, configJsonSchema } from '../build/config/config-reference.js';

const check = process.argv.includes('--check');
const START = '<!-- config-reference:start -->';
const END = '<!-- config-reference:end -->';
const readme = readFileSync('docs/configuration.md', 'utf8');
const a = readme.indexOf(START);
const b = readme.indexOf(END);
if (a < 0 || b < a) throw new Error(`docs/configuration.md has no ${START} … ${END} section`);
const next = `${readme.slice(0, a + START.length)}\n${renderConfigReference()}\n${readme.slice(b)}`;
const schema = `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
let current = '';
try { current = readFileSync('docs/proofpr.schema.json', 'utf8'); } catch { /* first run */ }
if (check) {
  if (next !== readme || schema !== current) {
    console.error('docs/configuration.md config reference or docs/proofpr.schema.json is stale: run node scripts/gen-config-docs.mjs');
    process.exit(1);
  }
} else {
  writeFileSync('docs/configuration.md', next);
  writeFileSync('docs/proofpr.schema.json', schema);
}
