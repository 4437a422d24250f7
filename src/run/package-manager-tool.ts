/**
 * Readiness, part 1b (before setup): the package manager the setup and test commands call (pnpm,
 * yarn) is on PATH, or corepack (shipped with Node) can run it. When the binary is absent and
 * `corepack <tool> --version` works, the commands are run through corepack (`corepack pnpm install
 * --frozen-lockfile`); when neither works, the run stops before setup and before any model request,
 * naming the missing tool and the fix (corepack-failure.ts: a signature corepack cannot verify has its own).
 * A tool on PATH that is corepack's shim is probed the same way. The probe runs with a minimal environment (PATH, HOME, the
 * non-secret COREPACK_*, proxy and CA-certificate variables) and a timeout, so an unreachable registry fails fast.
 */
import { accessSync, constants, readFileSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { execa } from 'execa';
import { isSecretName } from '../workspace/env-scrub.js';
import { commandSegments, withoutAssignments } from '../detect/shell-words.js';
import { corepackFailure, enableFix, type CorepackFailure } from './corepack-failure.js';

/** Package managers corepack runs. */
const COREPACK_TOOLS = new Set(['pnpm', 'yarn']);

export type ToolCheck =
  | { ok: true; corepack?: { tools: string[]; why: string } }
  /** `reason` is `detail: fix`, the readiness stop's sentence. */
  | { ok: false; tool: string; reason: string; detail?: string; fix?: string };

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

/** COREPACK_* names that are settings, not credentials, though they look like one (public keys, or "0"). */
const COREPACK_SETTINGS = new Set(['COREPACK_INTEGRITY_KEYS']);

/** Names the probe keeps: where corepack's cache is, and the certificate authorities a TLS-intercepting proxy needs. */
const PROBE_NAMES = new Set(['PATH', 'HOME', 'LANG', 'XDG_CACHE_HOME', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR']);

/** The environment of the probe: what corepack needs, nothing secret. */
export function probeEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (typeof v !== 'string' || (isSecretName(k) && !COREPACK_SETTINGS.has(k))) continue;
    if (PROBE_NAMES.has(k) || /^COREPACK_/.test(k) || /^(https?|no)_proxy$/i.test(k)) out[k] = v;
  }
  return { ...out, COREPACK_ENABLE_DOWNLOAD_PROMPT: '0', COREPACK_ENABLE_AUTO_PIN: '0' };
}

/** The file `name` runs from on PATH (symlinks followed), when it is corepack's shim (`corepack enable` links them into corepack's dist). */
export function corepackShim(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
    } catch {
      continue;
    }
    try {
      const real = realpathSync(file);
      if (/[\\/]corepack[\\/]/.test(real) || readFileSync(real, 'utf8').slice(0, 2048).includes('corepack')) return file;
    } catch {
      /* unreadable: not known to be a shim */
    }
    return undefined;
  }
  return undefined;
}

/** Runs `argv` (`corepack pnpm --version`, or the shim's `--version`) the way the commands will: a failure as corepackFailure says it. */
async function probe(
  argv: [string, ...string[]],
  t: string,
  opts: ToolCheckOptions,
  where: string,
  shim: boolean,
): Promise<CorepackFailure | undefined> {
  const env = opts.env ?? process.env;
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const [file, ...args] = argv;
  const r = await execa(file, args, {
    cwd: opts.cwd,
    env: probeEnv(env),
    extendEnv: false,
    reject: false,
    all: true,
    stdin: 'ignore',
    timeout: timeoutMs,
  });
  if (r.exitCode === 0 && !r.timedOut) return undefined;
  const how = r.timedOut ? `timed out after ${Math.round(timeoutMs / 1000)} s` : undefined;
  return corepackFailure(t, `${shim ? t : `corepack ${t}`} --version`, r.all ?? '', {
    cwd: opts.cwd,
    where,
    shim,
    ...(how ? { how } : {}),
  });
}

const failed = (tool: string, f: CorepackFailure): ToolCheck => ({
  ok: false,
  tool,
  reason: `${f.detail}: ${f.fix}`,
  detail: f.detail,
  fix: f.fix,
});

/**
 * Checks the package managers that `commands` (setup, then test) call. `ok` with `corepack` when some
 * are missing but corepack provides them (the caller rewrites the commands with throughCorepack). A tool
 * on PATH that is corepack's shim is probed too (`pnpm --version`): it downloads the pinned version on
 * first use and fails as `corepack pnpm` would (e.g. a signature it cannot verify).
 */
export async function checkPackageManagerTools(commands: Array<string | undefined>, opts: ToolCheckOptions): Promise<ToolCheck> {
  const env = opts.env ?? process.env;
  const tools = [...new Set(commands.flatMap(corepackToolsIn))];
  const where = `needed by \`${commands.filter((c) => corepackToolsIn(c).length).join('` and `')}\``;
  for (const t of tools) {
    const shim = corepackShim(t, env.PATH);
    const f = shim && (await probe([shim, '--version'], t, opts, where, true));
    if (f) return failed(t, f);
  }
  const missing = tools.filter((t) => !onPath(t, env.PATH));
  if (!missing.length) return { ok: true };
  const tool = missing.join(' and ');
  if (!onPath('corepack', env.PATH)) {
    const fix = enableFix(tool, where);
    const detail = `${tool} is not installed and corepack is not on PATH`;
    return { ok: false, tool, reason: `${detail}: ${fix}`, detail, fix };
  }
  for (const t of missing) {
    const f = await probe(['corepack', t, '--version'], t, opts, where, false);
    if (f) return failed(tool, f);
  }
  return {
    ok: true,
    corepack: { tools: missing, why: `${tool} is not installed, so it runs through corepack (\`corepack ${missing[0]} …\`)` },
  };
}
