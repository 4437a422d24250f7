import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Parser } from 'web-tree-sitter';
import { analyzeBash, type SimpleCommand } from '../../permissions/bash-analysis.js';
import { RUNNERS } from './index.js';
import type { ReportRequest, Runner } from './types.js';

export type ReportPlan =
  | {
      ok: true;
      runner: Runner;
      command: string;
      env: Record<string, string>;
      report: string;
      files: Array<{ path: string; content: string }>;
      via?: string;
    }
  | { ok: false; reason: string };

const quote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The one simple command `command` is, with static words; undefined for lists, pipelines, subshells, redirects or expansions. */
export function singleCommand(parser: Parser, command: string): SimpleCommand | undefined {
  const a = analyzeBash(parser, command);
  if (!a.ok || a.commands.length !== 1 || a.redirects.length > 0 || a.variables.length > 0) return undefined;
  const c = a.commands[0];
  if (!c || c.text.trim() !== command.trim()) return undefined;
  if (c.words.some((w) => w.value === null || w.glob) || c.assignments.some((x) => x.value !== null && x.value.value === null))
    return undefined;
  return c;
}

const NPX_FLAGS = new Set(['--no-install', '-y', '--yes', '--no', '-q', '--quiet']);

/** The runner a direct call names (after `npx`, `pnpm exec`, `yarn exec`), and how many words name it. */
function directRunner(words: readonly string[]): { runner: Runner; at: number; len: number } | undefined {
  let at = 0;
  if (words[0] === 'npx') {
    at = 1;
    while (words[at] !== undefined && NPX_FLAGS.has(words[at] ?? '')) at++;
  } else if ((words[0] === 'pnpm' || words[0] === 'yarn') && words[1] === 'exec') at = 2;
  const rest = words.slice(at);
  for (const r of RUNNERS) {
    const len = r.match(rest);
    if (len !== undefined) return { runner: r, at, len };
  }
  return undefined;
}

/** `npm test`, `npm run x`, `pnpm x`, `yarn x` → the package manager and the script name. */
function scriptCall(
  words: readonly string[],
  scripts: Record<string, string>,
): { pm: 'npm' | 'pnpm' | 'yarn'; name: string; argsAt: number } | undefined {
  const pm = words[0];
  if (pm !== 'npm' && pm !== 'pnpm' && pm !== 'yarn') return undefined;
  let i = 1;
  while ((words[i] ?? '').startsWith('-') && words[i] !== '--') i++;
  const verb = words[i];
  if (verb === undefined) return undefined;
  if (verb === 'test' || verb === 't' || verb === 'tst') return { pm, name: 'test', argsAt: i + 1 };
  if (verb === 'run' || verb === 'run-script') {
    const name = words[i + 1];
    return name === undefined ? undefined : { pm, name, argsAt: i + 2 };
  }
  if (pm !== 'npm' && scripts[verb] !== undefined) return { pm, name: verb, argsAt: i + 1 };
  return undefined;
}

function readScripts(cwd: string): Record<string, string> {
  try {
    const pkg = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { scripts?: Record<string, unknown> };
    return Object.fromEntries(Object.entries(pkg.scripts ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

function redirect(stream: ReportRequest['stream'], report: string): string {
  if (stream === 'stdout') return ` > ${quote(report)}`;
  if (stream === 'stderr') return ` 2> ${quote(report)}`;
  if (stream === 'both') return ` > ${quote(report)} 2>&1`;
  return '';
}

const KNOWN = 'jest, vitest, mocha, node --test, ava, tap, jasmine, playwright test, pytest, python -m unittest, go test, cargo test';

/**
 * How to run `command` so its runner writes a machine-readable report to `report` (a fresh path in
 * `dir`, a folder only the harness created). The command must be one runner call (`npx jest`, `node
 * --test`, `go test ./...`) or a package-manager script (`npm test`, `pnpm run x`, `yarn x`) whose
 * script is one such call; then the flags go after `--`
 * (npm) or straight after the script name (pnpm, yarn); a script calling another script is not
 * followed. Anything else — a list, a pipeline, a
 * redirect, a script with `&&` — cannot be asked for a report: `ok: false` with the reason.
 */
export function planReport(parser: Parser, command: string, cwd: string, report: string, dir: string): ReportPlan {
  const c = singleCommand(parser, command);
  const fail = (why: string): ReportPlan => ({
    ok: false,
    reason: `\`${command}\` ${why}; make test.command one call of a runner proofpr reads (${KNOWN}), e.g. \`npx jest\`, or set test.report`,
  });
  if (!c) return fail('is not one simple command (a list, pipeline, subshell, redirect or expansion)');
  const words = c.words.map((w) => w.value ?? '');
  const texts = c.words.map((w) => w.text);
  const prefix = c.assignments.map((a) => `${a.name}=${quote(a.value?.value ?? '')}`);
  const build = (runner: Runner, parts: string[], via?: string): ReportPlan => {
    const req = runner.request(report, dir);
    return {
      ok: true,
      runner,
      command: [...prefix, ...parts].join(' ') + redirect(req.stream, report),
      env: req.env ?? {},
      report,
      files: req.files ?? [],
      ...(via ? { via } : {}),
    };
  };
  const direct = directRunner(words);
  if (direct) {
    const req = direct.runner.request(report, dir);
    const cut = direct.at + direct.len;
    const args = req.args.map(quote);
    return build(direct.runner, req.afterProgram ? [...texts.slice(0, cut), ...args, ...texts.slice(cut)] : [...texts, ...args]);
  }
  const scripts = readScripts(cwd);
  const call = scriptCall(words, scripts);
  if (!call) return fail('does not call a test runner proofpr knows');
  const body = scripts[call.name];
  if (body === undefined) return fail(`runs the package.json script "${call.name}", which does not exist`);
  const inner = singleCommand(parser, body);
  const r = inner ? directRunner(inner.words.map((w) => w.value ?? '')) : undefined;
  // A script that calls another script is not followed: npm would read the added flags as its own.
  if (!r) return fail(`runs the package.json script "${call.name}" (\`${body}\`), which is not one call of a test runner proofpr knows`);
  const req = r.runner.request(report, dir);
  if (req.afterProgram)
    return fail(`runs ${r.runner.name} through the package.json script "${call.name}", where proofpr cannot place its flags`);
  const hasDashes = words.slice(call.argsAt).includes('--');
  const sep = call.pm === 'npm' && !hasDashes ? ['--'] : [];
  return build(
    r.runner,
    [...texts, ...(req.args.length ? sep : []), ...req.args.map(quote)],
    `package.json script "${call.name}": ${body}`,
  );
}
