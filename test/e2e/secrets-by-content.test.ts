import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import type { ScriptStep } from '../../src/model/scripted.js';
import type { RunTaskResult } from '../../src/run/run-task-types.js';
import { bash, DONE, edit, read } from '../kit/e2e-script.js';
import { FAKE_AWS_ID, FAKE_AWS_SECRET } from '../kit/fake-secrets.js';
import { runIssue, tempRepo, writeFiles, type Files, type TempRepo } from './helpers.js';

/**
 * Issue 37, "the dotenv-style case": a library whose tests read tracked `.env` fixtures (`BASIC=basic`)
 * is verified with the runner's own counts, because a file is masked for what it holds, never for its
 * name; a tracked `.env` holding an AWS key is masked, the test that reads it fails in the baseline with
 * a message naming the file and the opt-in, and the evidence says so. An ignored `.env` of the
 * developer's checkout never enters the run. Real temp repositories, `node --test`, the real sandbox
 * (bwrap when it works here), a scripted model.
 */

/** The ignored `.env` of the developer's checkout: never in the agent's world, never in an artifact. */
const CHECKOUT_CANARY = 'CNRYcheckoutenv7d1e4a9b3c';

const LIB: Files = {
  'package.json': JSON.stringify({ name: 'tiny-dotenv', version: '1.0.0', type: 'module', scripts: { test: 'node --test' } }, null, 2),
  '.gitignore': '/.env\nnode_modules/\n',
  // The bug: keys and values are not trimmed (`SPACED_KEY = parsed` comes out as "SPACED_KEY " → " parsed").
  'lib/parse.js':
    "export function parse(src) {\n  const out = {};\n  for (const line of src.split('\\n')) {\n    const m = /^([^#=][^=]*)=(.*)$/.exec(line);\n    if (m) out[m[1]] = m[2];\n  }\n  return out;\n}\n",
  'tests/.env': 'BASIC=basic\nSECRET=xxx\nPASSWORD=test\nAPI_KEY=changeme\n    SPACED_KEY = parsed\n',
  'tests/parse.test.js': [
    "import { test } from 'node:test';",
    "import assert from 'node:assert';",
    "import { readFileSync } from 'node:fs';",
    "import { parse } from '../lib/parse.js';",
    "const env = parse(readFileSync(new URL('./.env', import.meta.url), 'utf8'));",
    "test('parses a basic value', () => assert.strictEqual(env.BASIC, 'basic'));",
    "test('parses SECRET', () => assert.strictEqual(env.SECRET, 'xxx'));",
    "test('parses PASSWORD', () => assert.strictEqual(env.PASSWORD, 'test'));",
    "test('parses API_KEY', () => assert.strictEqual(env.API_KEY, 'changeme'));",
    "test('trims spaced keys and values', () => assert.strictEqual(env.SPACED_KEY, 'parsed'));",
    '',
  ].join('\n'),
};

/** A tracked credential file and the test that reads it. */
const AWS: Files = {
  'deploy/.env': `AWS_REGION=eu-west-1\nAWS_ACCESS_KEY_ID=${FAKE_AWS_ID}\nAWS_SECRET_ACCESS_KEY=${FAKE_AWS_SECRET}\n`,
  'tests/aws.test.js': [
    "import { test } from 'node:test';",
    "import assert from 'node:assert';",
    "import { readFileSync } from 'node:fs';",
    "import { parse } from '../lib/parse.js';",
    "test('the deploy key is an AWS key id', () => {",
    "  const env = parse(readFileSync(new URL('../deploy/.env', import.meta.url), 'utf8'));",
    "  assert.match(env.AWS_ACCESS_KEY_ID ?? '', /^AKIA/);",
    '});',
    '',
  ].join('\n'),
};

const ISSUE = { number: 12, title: 'spaced keys are not trimmed', body: '`    SPACED_KEY = parsed` parses as "SPACED_KEY " → " parsed"' };
const YAML = 'test:\n  command: node --test\npermissions:\n  allow: ["Bash(node --test:*)", "Bash(cat:*)"]\ngates:\n  max_stop_blocks: 1\n';
const FIX = edit('lib/parse.js', 'if (m) out[m[1]] = m[2];', 'if (m) out[m[1].trim()] = m[2].trim();');

function repoWith(files: Files): TempRepo {
  const repo = tempRepo({ files, prefix: 'proofpr-e2e37-' });
  // The developer's checkout holds an ignored .env (after the commit: git ignores it).
  writeFiles(repo.dir, { '.env': `DATABASE_PASSWORD=${CHECKOUT_CANARY}\n` });
  return repo;
}

async function run(repo: TempRepo, yaml: string, steps: ScriptStep[]): Promise<RunTaskResult> {
  const runId = `s${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  return (await runIssue(repo, { issue: ISSUE, branch: 'proofpr/12-trim', config: parseRepoConfig(yaml), script: steps, runId })).res;
}

/** Every file of the run folder, as text (what a reader of the evidence, report, summary, transcript gets). */
function runFolderText(dir: string): string {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return out.join('\n');
}

describe('secrets by content: the dotenv-style case (e2e)', () => {
  it("secrets e2e - tracked .env fixtures are visible: the fix is verified with node --test's own counts; the checkout's ignored .env never enters", async () => {
    const repo = repoWith(LIB);
    const r = await run(repo, YAML, [read('tests/.env'), read('lib/parse.js'), FIX, bash('node --test'), bash('cat .env'), DONE]);
    expect({ verdict: r.evidence.verdict, reason: r.evidence.reason }).toMatchObject({ verdict: 'verified' });
    expect(r.evidence.masked ?? []).toEqual([]);
    const final = [...r.evidence.testRuns].reverse().find((t) => t.kind === 'final');
    expect(final?.counts).toMatchObject({ passed: 5, failed: 0 });
    expect(final?.source).toBe('junit'); // node --test's own report, observed by the harness
    expect(r.evidence.baseline?.counts).toMatchObject({ passed: 4, failed: 1 });
    expect(r.evidence.maskedReads).toBeUndefined();
    const all = runFolderText(r.runDir);
    expect(all).toContain('BASIC=basic'); // the agent read the fixture
    expect(all).not.toContain(CHECKOUT_CANARY);
  }, 240_000);

  it('secrets e2e - a tracked .env holding an AWS key is masked; the baseline names the test that read it and the opt-in; the evidence says so', async () => {
    const repo = repoWith({ ...LIB, ...AWS });
    const r = await run(repo, YAML, [read('deploy/.env'), read('lib/parse.js'), FIX, bash('node --test'), DONE]);
    expect(r.evidence.masked).toEqual(['deploy/.env']);
    expect(r.evidence.maskedReads).toEqual(['deploy/.env']);
    const b = r.evidence.baseline;
    expect(b?.maskedReads).toEqual(['deploy/.env']);
    expect(b?.note).toMatch(/a test read masked file deploy\/\.env .*: opt it in with permissions\.readable/);
    expect(b?.counts).toMatchObject({ failed: 2 });
    expect(r.summaryMd).toMatch(/A test read a masked file:\*\* `deploy\/\.env`: opt it in with `permissions\.readable`/);
    // The Read was refused; the secret is in no artifact of the run.
    expect(r.evidence.denied.some((d) => d.input.includes('deploy/.env'))).toBe(true);
    const all = runFolderText(r.runDir);
    expect(all).not.toContain(FAKE_AWS_SECRET);
    expect(all).not.toContain(FAKE_AWS_ID);
    expect(all).not.toContain(CHECKOUT_CANARY);
  }, 240_000);

  it('secrets e2e - permissions.readable opts the file in: the same repository is verified, no test reads a placeholder', async () => {
    const repo = repoWith({ ...LIB, ...AWS });
    const config = YAML.replace('permissions:\n', 'permissions:\n  readable: ["deploy/.env"]\n');
    const r = await run(repo, config, [read('lib/parse.js'), FIX, bash('node --test'), DONE]);
    expect({ verdict: r.evidence.verdict, reason: r.evidence.reason }).toMatchObject({ verdict: 'verified' });
    expect(r.evidence.masked ?? []).toEqual([]);
    expect(r.evidence.maskedReads).toBeUndefined();
    const final = [...r.evidence.testRuns].reverse().find((t) => t.kind === 'final');
    expect(final?.counts).toMatchObject({ passed: 6, failed: 0 });
  }, 240_000);
});
