import { lstatSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/**
 * The host paths a sandboxed process sees besides the worktree, its dependency folders, its private
 * /tmp and HOME and the toolchains PATH names (docs/security.md, "What the sandbox mounts"). The
 * sandbox is built from this list: nothing else of the host is there, so no host Unix socket (Docker's
 * in /var/run, D-Bus and systemd in /run, X11 in /tmp/.X11-unix, one in a home) can be reached, whatever
 * its name. The system folders hold the toolchains and their libraries; /etc contributes the files a
 * toolchain reads at start (the dynamic linker's cache, users and groups for getpwuid, name resolution,
 * TLS roots, time zone, alternatives), each bound by its real path so a link into /run still resolves.
 */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'] as const;

export const ETC_ENTRIES = [
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'passwd',
  'group',
  'nsswitch.conf',
  'host.conf',
  'hosts',
  'resolv.conf',
  'gai.conf',
  'protocols',
  'services',
  'ssl',
  'ca-certificates',
  'ca-certificates.conf',
  'pki',
  'crypto-policies',
  'alternatives',
  'localtime',
  'timezone',
  'mime.types',
  'os-release',
  'debian_version',
  'lsb-release',
  'fonts',
] as const;

/** /etc folders a toolchain installed under /usr keeps its settings in (/etc/java-21-openjdk, /etc/python3.12). */
const ETC_TOOLCHAIN_PREFIXES = ['java-', 'python3'] as const;

/** Host folders that hold sockets, homes or the kernel's views: never mounted whole, nor any folder above them. */
const NEVER_WHOLE = ['/run', '/var', '/tmp', '/home', '/root', '/dev', '/proc', '/sys', '/srv', '/mnt', '/media'] as const;
/** Folders whose sub-folders are runtime state (`/run/user/<uid>` holds a session's sockets): never an install prefix. */
const NO_PREFIX_UNDER = ['/run', '/var'] as const;

/** `p` is `dir` or lies below it. */
export const within = (p: string, dir: string): boolean => p === dir || p.startsWith(`${dir}/`);

/**
 * Whether a toolchain folder PATH names (`asPrefix`: the install prefix above its `bin/` or `shims/`) may be
 * bound into the sandbox: never `/`, a folder that is or holds one of the host's socket, home or kernel
 * folders (a PATH entry of `/run` or `/home`), a home itself (`~/bin` on PATH must not bring `~` with it),
 * nor, under /run or /var, anything but a `bin/` or `shims/` folder itself (`/var/run` is a socket folder;
 * `/run/user/1000` above `/run/user/1000/bin` is a session's runtime state).
 */
export function mayMountToolchainDir(p: string, asPrefix: boolean, home: string = homedir()): boolean {
  if (p === '/' || [...NEVER_WHOLE, home].some((d) => within(d, p))) return false;
  if (dirname(p) === '/home') return false;
  if (!NO_PREFIX_UNDER.some((d) => within(p, d))) return true;
  // Under /run or /var only a toolchain's own folder (fnm's /run/user/1000/fnm_multishells/x/bin), never a prefix.
  return !asPrefix && ['bin', 'shims'].includes(p.slice(p.lastIndexOf('/') + 1));
}

/** Whether `p` lies in one of the system folders (their real paths), which the sandbox always mounts. */
export function inSystemDir(p: string): boolean {
  return systemRealDirs().some((d) => within(p, d));
}

let cachedReal: string[] | undefined;
function systemRealDirs(): string[] {
  cachedReal ??= SYSTEM_DIRS.flatMap((d) => {
    try {
      return [realpathSync(d)];
    } catch {
      return [];
    }
  });
  return cachedReal;
}

/**
 * bwrap arguments that build the sandbox's root from the list above: each system folder read-only (a
 * merged-/usr link such as /bin → usr/bin made again as the same link), each /etc entry that exists bound
 * read-only from its real path, a minimal /dev, a /proc of the sandbox's own pid namespace, and private
 * /tmp and /var/tmp.
 */
export function systemRootArgv(): string[] {
  const argv: string[] = [];
  for (const d of SYSTEM_DIRS) {
    const st = lstatOrUndefined(d);
    if (!st) continue;
    if (st.isSymbolicLink()) {
      const target = readlinkSync(d);
      const real = isAbsolute(target) ? target : resolve(dirname(d), target);
      if (lstatOrUndefined(real)) argv.push('--symlink', target, d);
    } else if (st.isDirectory()) argv.push('--ro-bind', d, d);
  }
  const toolchainEtc = readdirOrEmpty('/etc').filter((n) => ETC_TOOLCHAIN_PREFIXES.some((p) => n.startsWith(p)));
  for (const name of [...ETC_ENTRIES, ...toolchainEtc]) {
    const p = join('/etc', name);
    if (!lstatOrUndefined(p)) continue;
    let real: string;
    try {
      real = realpathSync(p);
    } catch {
      continue; // a dangling link (resolv.conf into a /run that is not there): nothing to bind
    }
    argv.push('--ro-bind', real, p);
  }
  argv.push('--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--tmpfs', '/var/tmp');
  return argv;
}

function lstatOrUndefined(p: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

function readdirOrEmpty(p: string): string[] {
  try {
    return readdirSync(p);
  } catch {
    return [];
  }
}
