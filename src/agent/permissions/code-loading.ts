/*
 * Flags that make an interpreter or a test runner load code besides the file it was asked to run
 * (docs/security.md, row "exfiltration"): preload modules, loaders, inline code in data: URLs, remote
 * modules. Refused for every interpreter and runner, whatever rule admits the command, and for the
 * arguments a package-manager script passes on after `--` (the runner behind `npm test` is unknown).
 */

/** Interpreters and runners whose `-r` means "require this module first". */
const DASH_R_LOADS = new Set(['node', 'nodejs', 'bun', 'ts-node', 'tsx', 'mocha', 'jasmine', 'ava', 'tap', 'electron', 'esno']);

export const RUNNERS: ReadonlySet<string> = new Set([
  'node',
  'nodejs',
  'bun',
  'deno',
  'ts-node',
  'tsx',
  'esno',
  'jest',
  'vitest',
  'mocha',
  'ava',
  'tap',
  'jasmine',
  'playwright',
  'c8',
  'nyc',
  'pytest',
  'py.test',
  'go',
  'cargo',
  'electron',
]);

const LONG_LOADERS =
  /^--(import|require|loader|experimental-loader|experimental-[a-z-]*imports?|experimental-[a-z-]*loader|env-file(-if-exists)?|inspect(-brk|-port|-wait)?|node-options?|node-arg|preload|toolexec)(=|$)/;
const URL_SPEC = /(^|=)(data:|https?:\/\/|file:|blob:|node:child_process)/i;

/** Why `args` of `base` would load extra code, or null. `afterDashes`: only look past `--` (package-manager scripts). */
export function codeLoadingFlag(base: string, args: readonly (string | null)[], afterDashes = false): string | null {
  let on = !afterDashes;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === null || a === undefined) continue;
    if (a === '--') {
      if (afterDashes) on = true;
      continue;
    }
    if (!on) continue;
    if (URL_SPEC.test(a))
      return `${base} ${a}: loading code from a URL or a data: specifier is not allowed; put the code in a file in the worktree`;
    const m = LONG_LOADERS.exec(a);
    if (m)
      return `${base} ${a}: the option loads or runs other code before the program (a preload, loader, inspector or config override); run the file directly`;
    if (base === 'go' && /^-(exec|toolexec|overlay)(=|$)/.test(a)) return `go ${a} runs another program for each test binary; not allowed`;
    if (base === 'cargo' && /^--config(=|$)/.test(a))
      return `cargo ${a}: a config override can name programs to run (runners, linkers); not allowed`;
    if (base === 'cargo' && /^-Z/.test(a)) return `cargo ${a}: unstable flags can run other programs; not allowed`;
    if ((afterDashes || DASH_R_LOADS.has(base)) && /^-r(.+)?$/.test(a) && base !== 'vitest')
      return `${base} ${a}: -r preloads a module; run the file directly`;
    if ((base === 'pytest' || base === 'py.test') && a === '-p' && !(args[i + 1] ?? '').startsWith('no:'))
      return `pytest -p ${args[i + 1] ?? ''} loads a plugin module; use conftest.py in the worktree, or -p no:NAME to disable one`;
    if ((base === 'pytest' || base === 'py.test') && /^-p(?!no:)./.test(a)) return `pytest ${a} loads a plugin module; not allowed`;
  }
  return null;
}
