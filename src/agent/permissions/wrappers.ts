/*
 * Wrapper commands unwrapped by their real option grammar (docs/security.md, row "exfiltration"):
 * `timeout`, `nice`, `nohup`, `stdbuf`, `time`, `env`, `command`, `builtin`, `exec`, `xargs`. The
 * command they run is what the policy checks. `xargs` (and `env -S`) build the inner argv from data
 * the policy cannot see: the inner command is then unknown, except for the few commands that only
 * count or name files (`find … -print0 | xargs -0 wc -l`).
 */
import { basename } from 'node:path';
import { parseOptions, type OptionTable } from './parse-options.js';
import type { Word } from './words.js';

/** Names allowed in `NAME=value cmd`, `env NAME=value cmd` and `export NAME=…`: nothing that points a tool at other code or config. */
export const SAFE_ENV_NAMES: ReadonlySet<string> = new Set([
  'CI',
  'NODE_ENV',
  'FORCE_COLOR',
  'NO_COLOR',
  'TZ',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'LC_MESSAGES',
  'LC_COLLATE',
  'TERM',
  'COLUMNS',
  'LINES',
  'DEBUG',
  'VERBOSE',
  'RUST_BACKTRACE',
  'RUST_LOG',
  'PYTHONUNBUFFERED',
  'PYTHONDONTWRITEBYTECODE',
  'PYTHONHASHSEED',
  'CGO_ENABLED',
  'NODE_NO_WARNINGS',
  'TS_NODE_TRANSPILE_ONLY',
  'JEST_JUNIT_OUTPUT_DIR',
  'UPDATE_SNAPSHOTS',
]);

/** Inner commands of xargs that only count, stat or name their arguments (their argv may be unknown). */
export const XARGS_SAFE_INNER: ReadonlySet<string> = new Set([
  'wc',
  'ls',
  'stat',
  'file',
  'du',
  'basename',
  'dirname',
  'echo',
  'md5sum',
  'sha1sum',
  'sha256sum',
]);

const GRAMMAR: Record<string, OptionTable> = {
  timeout: {
    flags: 'v',
    req: 'ks',
    posix: true,
    long: { 'kill-after': 'req', signal: 'req', 'preserve-status': 'none', foreground: 'none', verbose: 'none' },
  },
  nice: { req: 'n', numeric: true, posix: true, long: { adjustment: 'req' } },
  nohup: { posix: true, long: {} },
  stdbuf: { req: 'ioe', posix: true, long: { input: 'req', output: 'req', error: 'req' } },
  time: { flags: 'p', posix: true, abbrev: false, long: {} },
  command: { flags: 'pvV', posix: true, abbrev: false, long: {} },
  builtin: { posix: true, abbrev: false, long: {} },
  exec: { flags: 'cl', req: 'a', posix: true, abbrev: false, long: {} },
  env: { flags: 'i0', req: 'u', posix: true, long: { 'ignore-environment': 'none', null: 'none', unset: 'req' } },
  xargs: {
    flags: '0oprtx',
    req: 'adEILnPs',
    opt: 'eil',
    posix: true,
    long: {
      null: 'none',
      'arg-file': 'req',
      delimiter: 'req',
      eof: 'opt',
      replace: 'opt',
      'max-lines': 'opt',
      'max-args': 'req',
      'max-procs': 'req',
      interactive: 'none',
      'no-run-if-empty': 'none',
      'max-chars': 'req',
      verbose: 'none',
      exit: 'none',
      'show-limits': 'none',
      'open-tty': 'none',
      'process-slot-var': 'req',
    },
  },
};

export const WRAPPERS: ReadonlySet<string> = new Set(Object.keys(GRAMMAR));

export interface Unwrapped {
  /** The command that really runs (its words), or the wrapper itself when nothing runs. */
  inner: Word[];
  /** The inner argv is partly unknown (xargs appends arguments from stdin or a file). */
  argvUnknown: boolean;
  /** `command -v node`, `type`-like lookups: nothing runs, the words are only names. */
  lookupOnly: boolean;
  /** Environment names the wrappers set (`env A=1`, `env -u A`). */
  envNames: string[];
  /** Files a wrapper reads arguments from (`xargs -a FILE`): path-checked for reading. */
  readFiles: string[];
  error?: string;
}

/** Unwrap wrapper commands (nested, up to 8 deep) by their own option grammar. */
export function unwrap(words: Word[]): Unwrapped {
  let w = words;
  let argvUnknown = false;
  const envNames: string[] = [];
  const readFiles: string[] = [];
  const out = (extra: Partial<Unwrapped> = {}): Unwrapped => ({ inner: w, argvUnknown, lookupOnly: false, envNames, readFiles, ...extra });
  for (let guard = 0; guard < 8; guard++) {
    const name = w[0]?.value;
    if (name === undefined || name === null) return out();
    const b = basename(name);
    const g = GRAMMAR[b];
    if (!g || (b === 'env' && w.length === 1)) return out();
    const vals = w.slice(1).map((x) => x.value);
    const known = vals.findIndex((v) => v === null);
    const literal = (known === -1 ? vals : vals.slice(0, known)) as string[];
    const p = parseOptions(g, literal);
    if (!p.ok)
      return out({
        error: `${b} ${p.bad}: an option this policy does not know for ${b} (it may run or read something else); call the command without it`,
      });
    let start = 1 + literal.length - p.operands.length;
    if (b === 'timeout') start++; // DURATION
    if (b === 'command' && p.options.some((o) => o.name === '-v' || o.name === '-V')) return out({ lookupOnly: true });
    if (b === 'env') {
      for (const o of p.options) if (o.name === '-u' || o.name === '--unset') envNames.push(o.value ?? '');
      while (start < w.length) {
        const v = w[start]?.value;
        if (v === null || v === undefined) return out({ error: 'env arguments must be literal' });
        const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(v);
        if (!m) break;
        envNames.push(m[1] as string);
        start++;
      }
    }
    if (b === 'xargs') {
      argvUnknown = true;
      for (const o of p.options) if ((o.name === '-a' || o.name === '--arg-file') && o.value !== undefined) readFiles.push(o.value);
    }
    if (start >= w.length) {
      // `xargs` alone runs echo; `exec` alone only applies its redirects; `nohup`/`time` alone do nothing.
      if (b === 'xargs') return out({ inner: [{ value: 'echo', glob: false, text: 'echo' }] });
      return out({ inner: [], lookupOnly: true });
    }
    w = w.slice(start);
  }
  return out({ error: 'too many nested wrapper commands' });
}
