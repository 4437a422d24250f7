import { detectPackageManager, runScript } from './package-manager.js';
import { readText } from './read-text.js';
import type { DetectedCommands } from './types.js';

/** What `npm init` writes: a test script that only fails. */
const PLACEHOLDER = /no test specified/i;

/** Runners recognised in a script, in the order they are looked for (wrappers such as c8, nyc, cross-env are skipped over). */
const RUNNERS: Array<[RegExp, string]> = [
  [/\bplaywright\s+test\b/, 'playwright'],
  [/\bvitest\b/, 'vitest'],
  [/\bjest\b/, 'jest'],
  [/\bmocha\b/, 'mocha'],
  [/\bava\b/, 'ava'],
  [/\bjasmine\b/, 'jasmine'],
  [/(?:^|[\s;&|(])tap(?:\s|$)/, 'node-tap'],
  [/\btape\b/, 'tape'],
  [/\buvu\b/, 'uvu'],
  [/\bkarma\b/, 'karma'],
  [/\b(?:node|tsx|bun)\b[^;&|]*\s--test\b/, 'node:test'],
];

function runnerOf(script: string): string | undefined {
  for (const [re, name] of RUNNERS) if (re.test(script)) return name;
  return undefined;
}

type Pkg = {
  scripts?: Record<string, unknown>;
  packageManager?: unknown;
  dependencies?: object;
  devDependencies?: object;
  workspaces?: unknown;
};

/**
 * A Node project: `scripts.test` of package.json (the runner it calls, following one `npm run x`),
 * run with the package manager of the lock file, whose frozen install is the setup command.
 */
export async function detectNode(root: string): Promise<DetectedCommands | undefined> {
  const text = await readText(root, 'package.json');
  if (text === undefined) return undefined;
  let pkg: Pkg;
  try {
    pkg = JSON.parse(text) as Pkg;
  } catch {
    return { notes: ['package.json does not parse as JSON, so its scripts were not read'] };
  }
  const notes: string[] = [];
  const field = typeof pkg.packageManager === 'string' ? pkg.packageManager : undefined;
  const pm = await detectPackageManager(root, field);
  const hasDeps =
    Object.keys(pkg.dependencies ?? {}).length + Object.keys(pkg.devDependencies ?? {}).length > 0 || pkg.workspaces !== undefined;
  if (!pm.setup && hasDeps)
    notes.push('package.json has dependencies but no lock file: set setup.command (e.g. `npm install`) to install them before the run');
  const scripts = pkg.scripts ?? {};
  const script = typeof scripts.test === 'string' ? scripts.test.trim() : undefined;
  if (!script) return { ...(pm.setup && hasDeps ? { setup: pm.setup } : {}), notes: [...notes, 'package.json has no scripts.test'] };
  if (PLACEHOLDER.test(script))
    return {
      ...(pm.setup && hasDeps ? { setup: pm.setup } : {}),
      notes: [...notes, "package.json scripts.test is npm's placeholder (`no test specified`)"],
    };
  const via = /^(?:npm|pnpm|yarn|bun)\s+(?:run(?:-script)?\s+)?([\w:.-]+)\s*$/.exec(script)?.[1];
  const inner = via && typeof scripts[via] === 'string' ? (scripts[via] as string) : undefined;
  const runner = runnerOf(script) ?? (inner !== undefined ? runnerOf(inner) : undefined);
  const command = runScript(pm.pm, 'test');
  const calls = runner
    ? `runs ${runner} (\`${script.length > 80 ? `${script.slice(0, 79)}…` : script}\`)`
    : `is \`${script.length > 80 ? `${script.slice(0, 79)}…` : script}\``;
  return {
    test: { command, why: `package.json scripts.test ${calls}; ${pm.why}`, ...(runner ? { runner } : {}) },
    ...(pm.setup && hasDeps ? { setup: pm.setup } : {}),
    notes,
  };
}
