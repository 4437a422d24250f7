/**
 * Why corepack could not provide a package manager, and the fix to name. Two classes:
 * - corepack could not verify the download's registry signature (its built-in npm signing keys match
 *   none in the registry's metadata: a corepack older than the registry's keys, or a registry mirror
 *   that leaves signatures out). The fix names updating corepack, installing that exact version, or
 *   pinning it with its hash; skipping the check (COREPACK_INTEGRITY_KEYS=0) is named last, as the
 *   user's own choice. proofpr never turns the check off itself.
 * - anything else (no network, a registry that does not answer, a timeout): `corepack enable` with
 *   network access, or installing the tool.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** corepack's own words when the signature check failed (corepack 0.2x to 0.3x). */
const SIGNATURE =
  /No compatible signature found|not signed by any trusted keys|Cannot find matching keyid|disable signature verification|signature/i;

export interface CorepackFailure {
  /** What failed, for the detail line: `corepack could not verify the signature of pnpm@10.28.0 …`. */
  detail: string;
  /** The fix, one sentence. */
  fix: string;
  signature: boolean;
}

/**
 * The line of corepack's output that says what went wrong (its first `Error:` line, else the last line),
 * with the innermost `[cause]` when Node printed one (`… the request to …; cause: self-signed certificate …`).
 */
export function errorLine(output: string): string {
  const lines = output.split('\n').map((l) => l.trim());
  const first = lines.find((l) => /^(Usage|Type)?Error\b/.test(l)) ?? lines.filter(Boolean).pop() ?? 'no output';
  const cause = lines
    .map((l) => /^\[cause\]:\s*(?:\w*Error:\s*)?(.+)$/.exec(l)?.[1])
    .filter((c): c is string => c !== undefined && !/^\w*Error\s*[:{]?$/.test(c) && c !== '{')
    .pop();
  const line = cause && !first.includes(cause) ? `${first}; cause: ${cause}` : first;
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** True when corepack's output says it could not verify the download's signature. */
export function isSignatureFailure(output: string): boolean {
  return SIGNATURE.test(output);
}

/** `pnpm@10.28.0` from package.json's packageManager in `cwd` when it names `tool` (its hash left off), else `tool`. */
export function pinnedSpec(cwd: string, tool: string): string {
  try {
    const field = (JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { packageManager?: unknown }).packageManager;
    if (typeof field === 'string' && field.startsWith(`${tool}@`)) return field.split('+')[0] ?? tool;
  } catch {
    /* no package.json, or not JSON: the tool's name */
  }
  return tool;
}

/** The fix when corepack is missing or could not download (no network, no registry): `where` names the commands that need `tool`. */
export const enableFix = (tool: string, where: string): string =>
  `run \`corepack enable\` on this machine (with network access, so corepack can fetch ${tool}) or install ${tool}, ` +
  `or set setup.command in .github/proofpr.yml to a command that installs the dependencies without it (${where})`;

const signatureFix = (spec: string): string =>
  `update corepack (\`npm install -g corepack@latest\`) or install ${spec} itself (\`npm install -g ${spec}\`), ` +
  `or pin it with its hash in package.json ("packageManager": "${spec}+sha512.<hash>": corepack then checks that hash instead of a signature); ` +
  `only if you accept an unverified download, set COREPACK_INTEGRITY_KEYS=0 in the environment proofpr runs in (proofpr never turns the check off itself)`;

/**
 * The failure of `probe` (`corepack pnpm --version`, or the shim `pnpm --version`) for `tool`, from its
 * output; `how` overrides the error line (a timeout). `where` names the commands that need the tool.
 */
export function corepackFailure(
  tool: string,
  probe: string,
  output: string,
  opts: { cwd: string; where: string; how?: string; shim?: boolean },
): CorepackFailure {
  const how = opts.how ?? errorLine(output);
  const subject = opts.shim
    ? `${tool} on PATH is corepack's shim (\`corepack enable\`), and it could not run`
    : `${tool} is not installed and corepack could not provide it`;
  if (opts.how === undefined && isSignatureFailure(output)) {
    const spec = pinnedSpec(opts.cwd, tool);
    return {
      detail: `${subject}: corepack could not verify the signature of ${spec} (\`${probe}\`: ${how})`,
      fix: signatureFix(spec),
      signature: true,
    };
  }
  return { detail: `${subject} (\`${probe}\`: ${how})`, fix: enableFix(tool, opts.where), signature: false };
}
