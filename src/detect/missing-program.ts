/**
 * A test command that exits 127 could not start a program: the shell says which one. Readiness and
 * `proofpr doctor` name that program and how to get it, instead of suggesting a reporter for a runner
 * that never ran. Read from the shell's own message (bash, dash/sh, zsh, env), the last one printed.
 */
import { join } from 'node:path';
import { detectPackageManager } from './package-manager.js';
import { exists, readText } from './read-text.js';

const NOT_FOUND: RegExp[] = [
  // bash: `bash: line 1: vitest: command not found`, `bash: vitest: command not found`;
  // dash (npm's script shell): `sh: 1: vitest: not found`.
  /^[^\n]*?:\s*([^\s:'"`]+):\s*(?:command )?not found\s*$/gm,
  // zsh: `zsh: command not found: vitest`.
  /command not found:\s*([^\s'"`]+)\s*$/gm,
  // env (a `#!/usr/bin/env x` script, or `env x`): `env: 'vitest': No such file or directory`.
  /^(?:\/usr\/bin\/)?env:\s*['‘]?([^\s'’]+?)['’]?:\s*No such file or directory\s*$/gm,
];

/** The program the shell could not find, from the command's output; undefined when no such message is there. */
export function missingProgram(output: string): string | undefined {
  let best: { at: number; name: string } | undefined;
  for (const re of NOT_FOUND) {
    for (const m of output.matchAll(re)) {
      const name = m[1];
      if (name && (best === undefined || (m.index ?? 0) >= best.at)) best = { at: m.index ?? 0, name };
    }
  }
  return best?.name;
}

/** True when `program` is an executable the project's node_modules would provide (a dependency's bin). */
async function isNodeBin(repoDir: string, program: string): Promise<boolean> {
  if (await exists(repoDir, join('node_modules', '.bin', program))) return true;
  try {
    const pkg = JSON.parse((await readText(repoDir, 'package.json')) ?? '{}') as { dependencies?: object; devDependencies?: object };
    const deps = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
    // A bin usually shares its package's name (vitest, jest, mocha, tsc of typescript, c8, tap, ava, xo, …).
    return deps.some(
      (d) => d === program || d.split('/').pop() === program || (d === 'typescript' && ['tsc', 'tsserver'].includes(program)),
    );
  } catch {
    return false;
  }
}

/** package.json's packageManager field, when it is a string. */
async function packageManagerField(repoDir: string): Promise<string | undefined> {
  try {
    const f = (JSON.parse((await readText(repoDir, 'package.json')) ?? '{}') as { packageManager?: unknown }).packageManager;
    return typeof f === 'string' ? f : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The fix naming the missing program: a dependency's bin when the checkout has no node_modules (install
 * the dependencies, with the project's own install command), else a program to install on this machine.
 */
export async function missingProgramFix(repoDir: string, program: string, command: string): Promise<string> {
  const subject = `\`${program}\` was not found (exit 127) while \`${command}\` ran`;
  if (await isNodeBin(repoDir, program)) {
    const installed = await exists(repoDir, 'node_modules');
    const install = (await detectPackageManager(repoDir, await packageManagerField(repoDir))).setup?.command ?? 'npm install';
    return installed
      ? `${subject}: it is a dependency's program, not in node_modules/.bin: run \`${install}\` again in the repository (node_modules is out of date)`
      : `${subject}: it comes from the project's dependencies and the repository has no node_modules: run \`${install}\` in the repository first (the dry run uses the checkout's node_modules; a run installs with setup.command)`;
  }
  return `${subject}: install \`${program}\` on this machine (tests run with this machine's PATH, without network), or set test.command in .github/proofpr.yml to a command this machine has`;
}
