import { mkdirSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join, relative, sep } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import type { Logger } from 'pino';
import { silentLogger } from '../log.js';
import { OUTPUT_FILE_CAP_BYTES, type ExecPort, type ExecRequest, type ExecResult } from './exec-port.js';
import { scrubbedEnv } from './env-scrub.js';
import { homeCaches } from './home-caches.js';
import { OutputCap } from './output-cap.js';
import { resolveSandbox, sandboxArgv, type SandboxOptions, type SandboxSetting } from './sandbox.js';
import { checkoutGitBind, mirrorFolders, sandboxMounts, type CheckoutGit } from './sandbox-mounts.js';
import type { ProtectOptions } from './protected-mounts.js';
import { gitPinEnv, runsGit } from './git-pin.js';
import { readWorktreeGitDirsSync } from './worktree-git-dir.js';
import { registerGroup, releaseGroup } from './process-groups.js';
import { makeFreshHome, removeFreshHome } from './fresh-home.js';
import { keepBuildCacheSeed, noCachedTestResults, plantBuildCacheSeed } from './build-cache-seed.js';
import { openRedactingFile } from '../secrets/redacting-writer.js';

/** The worktree's git dir for the pin; none when `.git` is absent or does not check out (then git is not pinned, and the harness refuses its own calls). */
function pinnedGitDir(root: string): string | undefined {
  try {
    return readWorktreeGitDirsSync(root)?.gitDir;
  } catch {
    return undefined;
  }
}

export interface ExecOptions {
  root: string;
  /** Per-run scratch folder: HOME and TMPDIR of every child live under it. */
  runTmp: string;
  sandbox: SandboxSetting;
  extraEnvNames?: string[];
  /** Cap per stream (and for the interleaved output); head and tail are kept. Default 1 MiB. */
  maxOutputBytes?: number;
  /** Processes running at once; more wait in a queue. Default 4. */
  maxConcurrent?: number;
  /** Cap of a request's outputFile. Default OUTPUT_FILE_CAP_BYTES (100 MiB). */
  maxOutputFileBytes?: number;
  /** Grace between SIGTERM and SIGKILL of the process group. Default 2000 ms. */
  killGraceMs?: number;
  /**
   * Folders (or files) the sandbox hides: pass PROOFPR_HOME, the harness's real home (os.homedir()) and
   * the source checkout's git dir. The worktree, the per-run folders, the agent's private git and
   * linked dependency folders stay visible even when they lie under one. bwrap only.
   */
  hidePaths?: string[];
  /**
   * The worktree's git dir (Worktree.gitDir); else `<root>/.git` is read and checked. With bwrap it is
   * not mounted: the agent's private git (agent-git.ts) is bound at its path instead.
   */
  gitDir?: string;
  /** Where the agent's sanitized git stores are cached between runs (a run: `<PROOFPR_HOME>/agent-git`); default: the run's folder. */
  agentGitCache?: string;
  /** Keep the host network inside the sandbox (for a setup command like `npm ci`). Default false. */
  network?: boolean;
  /** Secret files masked and control files bound read-only in the sandbox (permissions.writable opens some). */
  protect?: ProtectOptions;
  /** The worktree read-only inside the sandbox (plan mode). */
  readOnlyWorktree?: boolean;
  /** Where the home folder's dependency caches are looked for (see home-caches.ts). Default os.homedir() and process.env. */
  hostHome?: string;
  hostEnv?: NodeJS.ProcessEnv;
  /** Known secret values (besides the process's secret-named variables) redacted from every output file. */
  secrets?: readonly string[];
  logger?: Logger;
}

export interface ExecHandle {
  exec: ExecPort;
  sandbox: 'bwrap' | 'none';
  /** Worktree-relative files the sandbox shows empty and read-only (secret-looking files); none without bwrap. */
  masked: readonly string[];
  /** Kill every live process group and refuse new work. */
  dispose(): Promise<void>;
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

/**
 * The ExecPort behind Bash, hooks and test runs: `bash -c` in its own process group, scrubbed env,
 * bubblewrap when available, timeout and cancel kill the whole group (SIGTERM, then SIGKILL), output
 * capped, a bounded number of concurrent processes, and nothing left running after dispose().
 */
/** What every command of one exec shares: the scrubbed environment, the sandbox, the git pin, the limits. */
interface ExecContext {
  opts: ExecOptions;
  sandbox: 'bwrap' | 'none';
  baseEnv: Record<string, string>;
  /** The bwrap settings; undefined without the sandbox. */
  box: Omit<SandboxOptions, 'cwd'> | undefined;
  /** The env that pins git to the worktree's git dir, for commands that run git. */
  pin: Record<string, string> | undefined;
  max: number;
  grace: number;
  log: Logger;
  /** Running children by pid (dispose kills their groups). */
  live: Map<number, ResultPromise>;
  /** The run's scratch folder and the home every command shares (a harness run gets a fresh one instead). */
  runTmp: string;
  home: string;
  /** Worktree-relative files the sandbox masks. */
  masked: string[];
  /** The read-only sanitized git a clean checkout of the repository gets in the sandbox (sandbox-mounts.ts). */
  checkoutGit?: CheckoutGit;
}

/** The run's home and tmp, the environment, the sandbox mounts and the git pin: set up once per exec. */
async function execContext(opts: ExecOptions): Promise<ExecContext> {
  const sandbox = await resolveSandbox(opts.sandbox);
  const root = realpathSync(opts.root);
  mkdirSync(join(opts.runTmp, 'home'), { recursive: true });
  mkdirSync(join(opts.runTmp, 'tmp'), { recursive: true });
  const runTmp = realpathSync(opts.runTmp);
  const home = join(runTmp, 'home');
  const tmp = join(runTmp, 'tmp');
  const caches = homeCaches({
    hostHome: opts.hostHome ?? homedir(),
    hostEnv: opts.hostEnv ?? process.env,
    runHome: home,
    network: opts.network === true,
  });
  // Configured env names win over the cache locations.
  const baseEnv = { ...caches.env, ...scrubbedEnv({ home, tmpdir: tmp, extraNames: opts.extraEnvNames }) };
  const mounts =
    sandbox === 'bwrap'
      ? await sandboxMounts({
          root,
          runTmp,
          gitDir: opts.gitDir,
          hidePaths: opts.hidePaths,
          pathEnv: baseEnv.PATH,
          ...(opts.protect ? { protect: opts.protect } : {}),
          ...(opts.agentGitCache ? { agentGitCache: opts.agentGitCache } : {}),
        })
      : undefined;
  const { masked = [], checkoutGit, ...boxMounts } = mounts ?? {};
  const box = mounts
    ? {
        root,
        tmp,
        home,
        network: opts.network === true,
        readOnlyRoot: opts.readOnlyWorktree === true,
        ...boxMounts,
        readOnly: [...(mounts.readOnly ?? []), ...caches.readOnly],
      }
    : undefined;
  const gitDir = opts.gitDir ? realpathSync(opts.gitDir) : pinnedGitDir(root);
  const pin = gitDir ? gitPinEnv(root, gitDir) : undefined;
  const log = opts.logger ?? silentLogger;
  if (box) log.debug({ hide: box.hide, readOnly: box.readOnly, network: box.network, caches: caches.notes }, 'sandbox mounts');
  return {
    opts,
    sandbox,
    baseEnv,
    box,
    pin,
    max: opts.maxOutputBytes ?? 1024 * 1024,
    grace: opts.killGraceMs ?? 2000,
    log,
    live: new Map(),
    runTmp,
    home,
    masked: masked.map((m) => relative(root, m).split(sep).join('/')),
    ...(checkoutGit ? { checkoutGit } : {}),
  };
}

/** One command: bash (in bwrap when sandboxed) in its own process group, output capped, killed on timeout or abort. */
async function runCommand(cx: ExecContext, req: ExecRequest): Promise<ExecResult> {
  const fresh = req.home === 'fresh' ? await makeFreshHome(cx.runTmp) : undefined;
  // A harness run's home starts with a private copy of the run's Go build cache seed (build-cache-seed.ts).
  if (fresh) await plantBuildCacheSeed(cx.runTmp, fresh);
  // And its own empty TMPDIR and tool caches: a runner's cache there (jest's transform cache) planted by
  // the agent's commands cannot stand in for a file.
  const own = fresh ? await mkdtemp(join(cx.runTmp, 'tmp', 'harness-')) : undefined;
  try {
    const dirs = fresh && own ? await harnessDirs(cx, fresh, own) : undefined;
    return await runIn(cx, req, dirs);
  } finally {
    if (fresh && req.seedBuildCache) await keepBuildCacheSeed(fresh, cx.runTmp, cx.home).catch(() => undefined);
    if (fresh) await removeFreshHome(fresh);
    if (own) await rm(own, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** A harness run's own home, TMPDIR and tool-cache folders (bound over those in node_modules). */
interface FreshDirs {
  home: string;
  tmp: string;
  toolCaches: Array<[string, string]>;
}

/**
 * A harness run's own folders, side by side in `own` (a new folder in the run's tmp, so visible in the
 * sandbox at the same path): an empty `tmp/` for TMPDIR, and `caches/` for the sandbox's tool-cache
 * binds (node_modules/.cache …). Nothing the agent's commands cached reaches the run.
 */
async function harnessDirs(cx: ExecContext, home: string, own: string): Promise<FreshDirs> {
  const tmp = join(own, 'tmp');
  await mkdir(tmp);
  const toolCaches: Array<[string, string]> = [];
  for (const [i, [, dest]] of (cx.box?.scratchBinds ?? []).entries()) {
    const src = join(own, 'caches', String(i));
    await mkdir(src, { recursive: true });
    await mirrorFolders(dest, src, { left: 2000 });
    toolCaches.push([src, dest]);
  }
  return { home, tmp, toolCaches };
}

/**
 * find-cache-dir (ava, xo, nyc, babel-loader) puts its cache under node_modules/.cache only when
 * node_modules itself is writable, which the sandbox's is not; some tools then still write there (xo's
 * fallback tsconfig). CACHE_DIR names the folder they would have used under the plain command, which is
 * writable in the sandbox (a tool-cache bind). Left alone when the environment sets it.
 */
function cacheDirEnv(cx: ExecContext, env: Record<string, string>): Record<string, string> {
  if (env.CACHE_DIR !== undefined) return {};
  const cache = cx.box?.scratchBinds?.find(([, dest]) => basename(dest) === '.cache')?.[1];
  return cache ? { CACHE_DIR: cache } : {};
}

/** A walled folder a harness step removed is made again (else bwrap fails on the missing mount source). */
function tryMkdir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    /* bwrap names the problem */
  }
}

/** The command's environment: the run's (or a fresh) home, the git pin when it runs git, the request's additions. */
function commandEnv(cx: ExecContext, req: ExecRequest, fresh: FreshDirs | undefined): Record<string, string> {
  const base = fresh ? { ...rehome(cx.baseEnv, cx.home, fresh.home), TMPDIR: fresh.tmp } : cx.baseEnv;
  // A harness run never replays a go test result cached by an earlier run.
  const harness: Record<string, string> = fresh ? { GOFLAGS: noCachedTestResults(base.GOFLAGS) } : {};
  const plain = {
    ...base,
    ...cacheDirEnv(cx, base),
    ...harness,
    ...(cx.pin && runsGit(req.command) ? cx.pin : {}),
    ...(req.extraEnv ?? {}),
  };
  return req.extendEnv ? { ...plain, ...req.extendEnv(plain) } : plain;
}

/** `env` with every value that is, or lies under, `from` (HOME, caches setup filled there) moved to `to`. */
function rehome(env: Record<string, string>, from: string, to: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) out[k] = v === from ? to : v.split(`${from}/`).join(`${to}/`);
  return out;
}

async function runIn(cx: ExecContext, req: ExecRequest, fresh: FreshDirs | undefined): Promise<ExecResult> {
  const { opts, max, grace, log, live, sandbox } = cx;
  const own = cx.box && fresh ? { ...cx.box, home: fresh.home, scratchBinds: fresh.toolCaches } : cx.box;
  // A clean checkout of the repository (a harness test run's cwd) sees the sanitized git, read-only.
  const checkout = own && req.cwd ? checkoutGitBind(cx.checkoutGit, req.cwd) : undefined;
  const box = own && checkout ? { ...own, overlays: [...(own.overlays ?? []), checkout] } : own;
  for (const d of box?.ensureDirs ?? []) tryMkdir(d);
  const started = Date.now();
  const env = commandEnv(cx, req, fresh);
  const [file, args] = box
    ? ['bwrap', [...sandboxArgv({ ...box, cwd: req.cwd }), '--', 'bash', '-c', req.command]]
    : ['bash', ['-c', req.command]];
  const child = execa(file, args, {
    cwd: req.cwd,
    env,
    extendEnv: false,
    detached: true,
    buffer: false,
    reject: false,
    stripFinalNewline: false,
    ...(req.stdin !== undefined ? { input: req.stdin } : { stdin: 'ignore' as const }),
  });
  const pid = child.pid;
  if (pid) live.set(pid, child);
  // Noted where the run watchdog's thread can see it: it kills the group even when this thread is stuck.
  if (pid) registerGroup(pid);
  const out = new OutputCap(max);
  const so = new OutputCap(max);
  const se = new OutputCap(max);
  // The full output reaches the run folder redacted as it arrives (a killed run leaves no token on disk).
  const sink = req.outputFile
    ? openRedactingFile(req.outputFile, { cap: opts.maxOutputFileBytes ?? OUTPUT_FILE_CAP_BYTES, extra: opts.secrets ?? [] })
    : undefined;
  child.stdout?.on('data', (b: Buffer) => (out.push(b), so.push(b), sink?.write(b)));
  child.stderr?.on('data', (b: Buffer) => (out.push(b), se.push(b), sink?.write(b)));
  let timedOut = false;
  let cancelled = false;
  let killTimer: NodeJS.Timeout | undefined;
  const stop = (): void => {
    killGroup(pid, 'SIGTERM');
    killTimer ??= setTimeout(() => killGroup(pid, 'SIGKILL'), grace);
  };
  const timer = setTimeout(() => ((timedOut = true), stop()), req.timeoutMs);
  const onAbort = (): void => ((cancelled = true), stop());
  if (req.signal?.aborted) onAbort();
  else req.signal?.addEventListener('abort', onAbort, { once: true });
  // When bash exits, anything it left in its group (daemons, `sleep &`) goes too.
  child.once('exit', () => killGroup(pid, 'SIGKILL'));
  const res = await child;
  clearTimeout(timer);
  if (killTimer) clearTimeout(killTimer);
  req.signal?.removeEventListener('abort', onAbort);
  if (pid) live.delete(pid);
  if (pid) releaseGroup(pid);
  const exitCode = typeof res.exitCode === 'number' ? res.exitCode : null;
  const saved = sink ? await sink.close() : false;
  log.debug({ exitCode, timedOut, cancelled, ms: Date.now() - started }, 'exec finished');
  return {
    exitCode,
    output: out.text(),
    stdout: so.text(),
    stderr: se.text(),
    timedOut,
    cancelled,
    durationMs: Date.now() - started,
    truncated: out.truncated || so.truncated || se.truncated,
    sandbox,
    outputBytes: out.total,
    ...(saved && req.outputFile ? { outputPath: req.outputFile } : {}),
  };
}

export async function createExec(opts: ExecOptions): Promise<ExecHandle> {
  const cx = await execContext(opts);
  const limit = opts.maxConcurrent ?? 4;
  const waiting: Array<() => void> = [];
  let running = 0;
  let disposed = false;

  const acquire = (): Promise<void> =>
    running < limit ? (running++, Promise.resolve()) : new Promise((r) => waiting.push(() => (running++, r())));
  const release = (): void => {
    running--;
    waiting.shift()?.();
  };

  const exec: ExecPort = async (req) => {
    if (disposed) throw new Error('exec used after the run ended (dispose() was called)');
    await acquire();
    try {
      return await runCommand(cx, req);
    } finally {
      release();
    }
  };

  return {
    exec,
    sandbox: cx.sandbox,
    masked: cx.masked,
    async dispose() {
      disposed = true;
      const all = [...cx.live.entries()];
      for (const [pid] of all) killGroup(pid, 'SIGKILL');
      await Promise.allSettled(all.map(([, c]) => c));
    },
  };
}
