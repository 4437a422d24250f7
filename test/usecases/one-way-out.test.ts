/**
 * Lint by reading the source (issue 24, "one way out"): under src/ only the publish step pushes, opens or
 * updates a PR by branch and creates check runs; and after the run only the one run-folder writer writes
 * evidence.json and summary.md. Each rule is also shown to catch the code it forbids.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

function sources(dir = 'src'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [relative('.', join(dir, e.name))] : [],
  );
}

const PUBLISH_CALLS = [/\.pushBranch\(/, /\bupsertPullRequest\(/, /\.createCheckRun\(/];

/** Files that call push, PR upsert or check-run creation (a definition is not a call). */
function publishCallers(file: string, text: string): string[] {
  return PUBLISH_CALLS.filter((re) =>
    text.split('\n').some((line) => re.test(line) && !/^\s*(export\s+)?(async\s+)?function\b/.test(line) && !/^\s*async \w+\(/.test(line)),
  ).map((re) => `${file}: ${re.source}`);
}

const RUN_FILES = /['"`](evidence\.json|summary\.md)['"`]/;
const WRITE = /\b(?:writeFile|writeFileSync|writeSync|appendFile|appendFileSync|writeAtomic|createWriteStream|rename|copyFile)\(/g;

/** The first argument of the call whose `(` ends at `at` (parentheses balanced). */
function firstArg(text: string, at: number): string {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')' && depth-- === 0) return text.slice(at, i).trim();
    else if (c === ',' && depth === 0) return text.slice(at, i).trim();
  }
  return text.slice(at).trim();
}

/** Does `text` write evidence.json or summary.md (directly, or through a variable holding that path), or call writeEvidence? */
function writesRunFiles(text: string): boolean {
  if (/(?<!function )\bwriteEvidence\(/.test(text)) return true;
  const holders = new Set<string>();
  for (const m of text.matchAll(/\b(?:const|let)\s+(\w+)\s*=\s*([^;\n]+)/g)) if (m[1] && RUN_FILES.test(m[2] ?? '')) holders.add(m[1]);
  for (const m of text.matchAll(WRITE)) {
    const target = firstArg(text, (m.index ?? 0) + m[0].length);
    if (RUN_FILES.test(target) || holders.has(target)) return true;
  }
  return false;
}

/**
 * The writers allowed: the run's own writer (run-folder.ts), the one writer after the run, the evidence
 * file's definition, `proofpr report` (re-renders a folder on request) and the watchdog (writes the
 * evidence of a run whose main thread is stuck, during the run).
 */
const WRITERS = new Set([
  'src/run/run-folder.ts',
  'src/run/update-run-folder.ts',
  'src/agent/evidence/evidence.ts',
  'src/agent/evidence/render-run.ts',
  'src/run/watchdog-worker.ts',
]);

describe('one way out - lint over src/', () => {
  const files = sources().map((f) => ({ f, text: readFileSync(f, 'utf8') }));

  it('one way out - only the publish step pushes, upserts a PR or creates a check run', () => {
    const callers = files.flatMap(({ f, text }) => publishCallers(f, text));
    // The verify flow (issue 40) publishes nothing but its check run `proofpr/verified`: one place, its use case.
    const verifyCheck = 'src/usecases/verify/verify-change.ts: \\.createCheckRun\\(';
    expect(callers.filter((c) => !c.startsWith('src/usecases/publish-work.ts:') && c !== verifyCheck)).toEqual([]);
    expect(callers).toEqual(expect.arrayContaining(PUBLISH_CALLS.map((re) => `src/usecases/publish-work.ts: ${re.source}`)));
  });

  it('one way out - a PR is opened only by the upsert, and its body edited only by the publish step and the CI section', () => {
    const at = (re: RegExp): string[] => files.filter(({ text }) => re.test(text)).map(({ f }) => f);
    expect(at(/\.createPullRequest\(/)).toEqual(['src/github/pull-request.ts']);
    expect(at(/\.updatePullRequest\(/).sort()).toEqual([
      'src/github/pull-request.ts',
      'src/usecases/publish-ci.ts',
      'src/usecases/publish-work.ts',
    ]);
  });

  it('one way out - the rule catches a push, an upsert and a check run written anywhere else', () => {
    const bad = [
      'await deps.workspace.pushBranch({ repoDir, branch });',
      'const pr = await upsertPullRequest(github, { branch });',
      'await github.createCheckRun({ headSha, ...check });',
    ].join('\n');
    expect(publishCallers('src/usecases/other.ts', bad)).toHaveLength(3);
    expect(publishCallers('src/github/pull-request.ts', 'export async function upsertPullRequest(\n')).toEqual([]);
  });

  it('one way out - after the run, only updateRunFolder writes evidence.json and summary.md', () => {
    const writers = files.filter(({ text }) => writesRunFiles(text)).map(({ f }) => f);
    expect(writers.filter((f) => !WRITERS.has(f))).toEqual([]);
    expect(writers).toEqual(expect.arrayContaining(['src/run/run-folder.ts', 'src/run/update-run-folder.ts']));
  });

  it('one way out - the writer rule catches a hand-written rewrite (the shapes the usecases had)', () => {
    expect(writesRunFiles("const file = join(runDir, 'evidence.json');\nwriteFileSync(file, JSON.stringify(ev));")).toBe(true);
    expect(writesRunFiles("await writeFile(join(runDir, 'summary.md'), summaryMd);")).toBe(true);
    expect(writesRunFiles('const evidencePath = await writeEvidence(runDir, evidence);')).toBe(true);
    expect(
      writesRunFiles("return { evidencePath: join(runDir, 'evidence.json') };\nawait writeFile(join(runDir, 'transcript.jsonl'), '');"),
    ).toBe(false);
  });
});
