import { statSync } from 'node:fs';
import { dependencyReason, ignoredDependencyDir } from './git-ignored.js';
import { checkPathArg, type PathContext, type PathRefusal } from './path-args.js';
import { resolveInside } from './path-jail.js';
import { writeTargets } from './write-targets.js';

/** The jail and the dependency-folder rule for every file a command writes (not through redirects). */

/** Every file a command writes (redirect-free: cp/mv/ln destinations, tee, sed -i and its backups, --output=…) must pass the jail for writing. */
export function checkWriteTargets(
  base: string,
  args: readonly (string | null)[],
  sedInPlace: boolean,
  ctx: PathContext,
): PathRefusal | null {
  if (args.some((a) => a === null)) return null;
  for (const t of [...writeTargets(base, args as string[], sedInPlace), ...outputOptionTargets(args as string[])]) {
    const r = checkPathArg(t.path, false, 'write', ctx, true);
    if (r) return { rule: r.rule, reason: `${base} writes ${t.path}: ${r.reason}` };
    if (t.intoName !== undefined) {
      for (const cwd of ctx.cwds) {
        const d = resolveInside(ctx.root, t.path, { gitDirs: ctx.gitDirs, cwd });
        if (d.ok && (t.folder === true || isDir(d.abs))) {
          const into = checkPathArg(`${d.abs}/${t.intoName}`, false, 'write', ctx, true);
          if (into) return { rule: into.rule, reason: `${base} writes into ${t.path}: ${into.reason}` };
        }
      }
    }
  }
  return null;
}

const OUTPUT_OPTION = /^--([a-z-]*output[a-z-]*|[a-z-]*out-?file|outputFile|log-file|junit-?xml|report-file)=(.+)$/i;

/** `--output=FILE` and similar option values of any command: files it will write. */
function outputOptionTargets(args: readonly string[]): { path: string; intoName?: string; folder?: boolean }[] {
  const out: { path: string }[] = [];
  for (const a of args) {
    const m = OUTPUT_OPTION.exec(a);
    if (m?.[2] && !/^(-|\d+$|json$|text$|html$|always$|never$|auto$)/.test(m[2])) out.push({ path: m[2] });
  }
  return out;
}

/** Content writes (cp/mv destination, tee, touch, sed -i, ...) into an ignored dependency folder would reach the final run without being in the commit. */
export function checkDependencyTargets(
  base: string,
  args: readonly (string | null)[],
  sedInPlace: boolean,
  ctx: PathContext,
): PathRefusal | null {
  if (!ctx.ignored || args.some((a) => a === null)) return null;
  for (const t of writeTargets(base, args as string[], sedInPlace)) {
    for (const cwd of ctx.cwds) {
      const r = resolveInside(ctx.root, t.path, { gitDirs: ctx.gitDirs, cwd });
      if (!r.ok) continue;
      const into =
        t.intoName !== undefined && (t.folder === true || isDir(r.abs)) ? `${r.rel === '' ? '' : `${r.rel}/`}${t.intoName}` : null;
      const dir = ignoredDependencyDir(ctx.ignored, r.rel) ?? (into !== null ? ignoredDependencyDir(ctx.ignored, into) : undefined);
      if (dir) return { rule: 'builtin-deny:dependency-path', reason: `${base}: ${dependencyReason(into ?? t.path, dir)}` };
    }
  }
  return null;
}

function isDir(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}
