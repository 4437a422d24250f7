/**
 * Readiness, part 1b (before setup): the package manager the setup and test commands call (pnpm,
 * yarn) is on PATH, or corepack (shipped with Node) can run it. When the binary is absent and
 * `corepack <tool> --version` works, the commands are run through corepack (`corepack pnpm install
 * --frozen-lockfile`); when neither works, the run stops before setup and before any model request,
 * naming the missing tool and the fix. The probe runs with a minimal environment (PATH, HOME, the
 * non-secret COREPACK_* and proxy variables) and a timeout, so an unreachable registry fails fast.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { execa } from 'execa';
import { isSecretName } from '../workspace/env-scrub.js';
import { commandSegments, withoutAssignments } from '../detect/shell-words.js';

/** Package managers corepack runs. */
const COREPACK_TOOLS = new Set(['pnpm', 'yarn']);

export type ToolCheck = { ok: true; corepack?: { tools: string[]; why: string } } | { ok: false; tool: string; reason: string };

export interface ToolCheckOptions {
  env?: NodeJS.ProcessEnv;
  /** Where the probe runs (the worktree: corepack reads package.json's packageManager there). */
  cwd: string;
  timeoutMs?: number;
}

/** True when `name` is an executable file in one of PATH's folders. */
export function onPath(name: string, path: string | undefined): boolean {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      /* not here */
    }
  }
  return false;
}

/** The package managers corepack could provide that a command line calls (first word of each simple command). */
export function corepackToolsIn(command: string | undefined): string[] {
  if (!command) return [];
  const tools = commandSegments(command)
    .map((s) => withoutAssignments(s)[0] ?? '')
    .filter((w) => COREPACK_TOOLS.has(w));
  return [...new Set(tools)];
}

/** `pnpm install …` → `corepack pnpm install …`, for each simple command of the line that starts with one of `tools`. */
export function throughCorepack(command: string, tools: readonly string[]): string {
  if (!tools.length) return command;
  const re = new RegExp(`(^|&&|\\|\\||;|\\n|\\|)(\\s*(?:[A-Za-z_][A-Za-z0-9_]*=\\S*\\s+)*)(${tools.join('|')})(?=\\s|$)`, 'g');
  return command.replace(re, (_m, sep: string, assigns: string, tool: string) => `${sep}${assigns}corepack ${tool}`);
}

/** The environment of the probe: what corepack needs, nothing secret. */
function probeEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (typeof v !== 'string' || isSecretName(k)) continue;
    if (['PATH', 'HOME', 'LANG', 'XDG_CACHE_HOME'].includes(k) || /^COREPACK_/.test(k) || /^(https?|no)_proxy$/i.test(k)) out[k] = v;
  }
  return { ...out, COREPACK_ENABLE_DOWNLOAD_PROMPT: '0', COREPACK_ENABLE_AUTO_PIN: '0' };
}

/** The line of corepack's output that says what went wrong. */
function errorLine(output: string): string {
  const lines = output.split('\n').map((l) => l.trim());
  const line = lines.find((l) => /^(Usage)?Error\b/.test(l)) ?? lines.filter(Boolean).pop() ?? 'no output';
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

const fix = (tool: string, where: string): string =>
  `run \`corepack enable\` on this machine (with network access, so corepack can fetch ${tool}) or install ${tool}, ` +
  `or set setup.command in .github/proofpr.yml to a command that installs the dependencies without it (${where})`;

/**
 * Checks the package managers that `commands` (setup, then test) call. `ok` with `corepack` when some
 * are missing but corepack provides them (the caller rewrites the commands with throughCorepack).
 */
export async function checkPackageManagerTools(commands: Array<string | undefined>, opts: ToolCheckOptions): Promise<ToolCheck> {
  const env = opts.env ?? process.env;
  const missing = [...new Set(commands.flatMap(corepackToolsIn))].filter((t) => !onPath(t, env.PATH));
  if (!missing.length) return { ok: true };
  const tool = missing.join(' and ');
  const where = `needed by \`${commands.filter((c) => corepackToolsIn(c).length).join('` and `')}\``;
  if (!onPath('corepack', env.PATH))
    return { ok: false, tool, reason: `${tool} is not installed and corepack is not on PATH: ${fix(tool, where)}` };
  for (const t of missing) {
    const r = await execa('corepack', [t, '--version'], {
      cwd: opts.cwd,
      env: probeEnv(env),
      extendEnv: false,
      reject: false,
      all: true,
      stdin: 'ignore',
      timeout: opts.timeoutMs ?? 120_000,
    });
    if (r.exitCode !== 0 || r.timedOut) {
      const how = r.timedOut ? `timed out after ${Math.round((opts.timeoutMs ?? 120_000) / 1000)} s` : errorLine(r.all ?? '');
      return {
        ok: false,
        tool,
        reason: `${t} is not installed and corepack could not provide it (\`corepack ${t} --version\`: ${how}): ${fix(t, where)}`,
      };
    }
  }
  return {
    ok: true,
    corepack: { tools: missing, why: `${tool} is not installed, so it runs through corepack (\`corepack ${missing[0]} …\`)` },
  };
}
