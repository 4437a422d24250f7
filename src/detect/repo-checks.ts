/**
 * The checks a repository has besides its test command (seed 000 §7.2, "not run here, and why"): lint,
 * type checks, other test commands and e2e suites, read from package.json scripts, Makefile targets,
 * tox / nox and the CI workflows' `run:` steps. The evidence lists those this run did not run, next to
 * what ran and passed; nothing here runs them.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readText } from './read-text.js';

export interface RepoCheck {
  /** What it is: lint, typecheck, test, e2e, format, build. */
  kind: string;
  /** The command that runs it (`npm run lint`, `make check`, `tox`). */
  command: string;
  /** Where it was found (package.json, Makefile, tox.ini, .github/workflows/ci.yml). */
  source: string;
}

const KINDS: Array<[RegExp, string]> = [
  [/e2e|integration|acceptance|playwright|cypress/i, 'e2e'],
  [/lint|eslint|ruff|flake8|clippy|golangci/i, 'lint'],
  [/typecheck|type-check|types|tsc|mypy|pyright|vet/i, 'typecheck'],
  [/format|prettier|fmt|black/i, 'format'],
  [/test|spec|check/i, 'test'],
];

function kindOf(name: string): string | undefined {
  return KINDS.find(([re]) => re.test(name))?.[1];
}

async function packageScripts(root: string): Promise<RepoCheck[]> {
  const text = await readText(root, 'package.json');
  if (!text) return [];
  let scripts: Record<string, unknown> = {};
  try {
    scripts = ((JSON.parse(text) as { scripts?: Record<string, unknown> }).scripts ?? {}) as Record<string, unknown>;
  } catch {
    return [];
  }
  return Object.keys(scripts)
    .filter((n) => !/^(pre|post)/.test(n) && typeof scripts[n] === 'string')
    .flatMap((n) => {
      const kind = kindOf(n);
      return kind ? [{ kind, command: n === 'test' ? 'npm test' : `npm run ${n}`, source: 'package.json' }] : [];
    });
}

async function makeTargets(root: string): Promise<RepoCheck[]> {
  const text = await readText(root, 'Makefile');
  if (!text) return [];
  const names = [...text.matchAll(/^([A-Za-z][\w-]*)\s*:(?!=)/gm)].map((m) => m[1] ?? '');
  return [...new Set(names)].flatMap((n) => {
    const kind = kindOf(n);
    return kind ? [{ kind, command: `make ${n}`, source: 'Makefile' }] : [];
  });
}

async function pythonRunners(root: string): Promise<RepoCheck[]> {
  const out: RepoCheck[] = [];
  if (await readText(root, 'tox.ini')) out.push({ kind: 'test', command: 'tox', source: 'tox.ini' });
  if (await readText(root, 'noxfile.py')) out.push({ kind: 'test', command: 'nox', source: 'noxfile.py' });
  return out;
}

/** Single-line `run:` steps of the CI workflows that are checks (lint, type check, tests, e2e). */
async function workflowSteps(root: string): Promise<RepoCheck[]> {
  const dir = '.github/workflows';
  const files = await readdir(join(root, dir)).catch(() => [] as string[]);
  const out: RepoCheck[] = [];
  for (const f of files.filter((n) => /\.ya?ml$/.test(n)).sort()) {
    const text = (await readText(root, `${dir}/${f}`)) ?? '';
    for (const m of text.matchAll(/^\s*(?:-\s*)?run:\s*([^|>\n][^\n]*)$/gm)) {
      const command = (m[1] ?? '').trim().replace(/^["']|["']$/g, '');
      const kind = kindOf(command);
      if (kind && !/\binstall\b|\bci\b$/.test(command)) out.push({ kind, command, source: `${dir}/${f}` });
    }
  }
  return out;
}

export async function detectRepoChecks(root: string): Promise<RepoCheck[]> {
  const all = [
    ...(await packageScripts(root)),
    ...(await makeTargets(root)),
    ...(await pythonRunners(root)),
    ...(await workflowSteps(root)),
  ];
  const seen = new Set<string>();
  return all.filter((c) => !seen.has(c.command) && seen.add(c.command));
}
