#!/usr/bin/env node
// Writes the sample PR body in docs/github-app.md (between the sample-pr-body markers) from the real
// renderer (build/agent/evidence/summary-md.js) and the fixture run test/fixtures/runs/verified.
// `--check` fails when it is out of date. Needs the build (npm run build).
import { readFileSync, writeFileSync } from 'node:fs';
import { renderSummaryMd } from '../build/agent/evidence/summary-md.js';

const START = '<!-- sample-pr-body:start -->';
const END = '<!-- sample-pr-body:end -->';
const evidence = JSON.parse(readFileSync('test/fixtures/runs/verified/evidence.json', 'utf8'));
const body = `Fixes #${evidence.task.issue}\n\n${renderSummaryMd(evidence)}`.trimEnd();
const doc = readFileSync('docs/github-app.md', 'utf8');
const a = doc.indexOf(START);
const b = doc.indexOf(END);
if (a < 0 || b < a) throw new Error(`docs/github-app.md has no ${START} … ${END} section`);
const next = `${doc.slice(0, a + START.length)}\n\`\`\`\`markdown\n${body}\n\`\`\`\`\n${doc.slice(b)}`;
if (process.argv.includes('--check')) {
  if (next !== doc) {
    console.error('docs/github-app.md sample PR body is stale: run node scripts/gen-sample-pr-body.mjs');
    process.exit(1);
  }
} else writeFileSync('docs/github-app.md', next);
