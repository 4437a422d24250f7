import { basename } from 'node:path';

/** Options whose value is the next word, per content-writing command. */
const VALUE_OPTS: Record<string, RegExp> = {
  cp: /^(-t|-S|--target-directory|--suffix)$/,
  mv: /^(-t|-S|--target-directory|--suffix)$/,
  install: /^(-t|-S|-m|-o|-g|--target-directory|--suffix|--mode|--owner|--group)$/,
  ln: /^(-t|-S|--target-directory|--suffix)$/,
  truncate: /^(-s|-r|--size|--reference)$/,
  touch: /^(-d|-r|-t|--date|--reference)$/,
  sed: /^(-e|-f|-l|-s|--expression|--file|--line-length)$/,
  chmod: /^(--reference)$/,
};

export interface WriteTarget {
  path: string;
  /** The path may be an existing folder the file lands in, under the name `intoName`. */
  intoName?: string;
  /** The path is a folder for sure (`-t DIR`, a trailing slash). */
  folder?: boolean;
}

/**
 * Files whose content a command writes (cp/mv/install/ln destination, tee, touch, truncate, sed -i,
 * chmod files). Deleting and creating folders (rm, rmdir, unlink, mkdir) are not content writes.
 * `args` are the literal arguments after the command name; `sedInPlace` marks `sed -i`.
 */
export function writeTargets(name: string, args: readonly string[], sedInPlace: boolean): WriteTarget[] {
  const base = basename(name);
  if (base === 'sed' && !sedInPlace) return [];
  if (!['cp', 'mv', 'install', 'ln', 'tee', 'touch', 'truncate', 'sed', 'chmod'].includes(base)) return [];
  const valueOpt = VALUE_OPTS[base];
  const plain: string[] = [];
  let targetDir: string | null = null;
  let scriptGiven = false;
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (options && a === '--') { options = false; continue; }
    if (options && a.startsWith('-') && a !== '-') {
      if (base === 'sed' && /^(-e|-f|--expression|--file)/.test(a)) scriptGiven = true;
      if (/^--target-directory=/.test(a)) targetDir = a.slice(a.indexOf('=') + 1);
      if (valueOpt?.test(a)) {
        if (a === '-t' || a === '--target-directory') targetDir = args[i + 1] ?? null;
        i++;
      }
      continue;
    }
    plain.push(a);
  }
  if (base === 'sed') return (scriptGiven ? plain : plain.slice(1)).map((path) => ({ path }));
  if (base === 'chmod') return plain.slice(1).map((path) => ({ path }));
  if (base === 'tee' || base === 'touch' || base === 'truncate') return plain.map((path) => ({ path }));
  if (targetDir !== null) return plain.map((src) => ({ path: targetDir as string, intoName: basename(src), folder: true }));
  const dest = plain[plain.length - 1];
  if (dest === undefined || plain.length < 2) return [];
  return plain.slice(0, -1).map((src) => ({ path: dest, intoName: basename(src), folder: dest.endsWith('/') || plain.length > 2 }));
}
