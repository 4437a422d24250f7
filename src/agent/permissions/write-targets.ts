import { basename } from 'node:path';
import { splitLoose } from './parse-options.js';

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
  if (base === 'sort') return sortOutputs(args);
  if (base === 'uniq') {
    const ops = args.filter((a) => !a.startsWith('-') || a === '-');
    return ops.length > 1 && ops[1] !== '-' ? [{ path: ops[1] as string }] : [];
  }
  const direct = writeTargetsOf(base, args);
  return [...direct, ...backups(base, args, direct)];
}

/** `sort -o FILE`, `-oFILE`, `--output=FILE` (abbreviated too). */
function sortOutputs(args: readonly string[]): WriteTarget[] {
  const out: WriteTarget[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') break;
    if (/^--o(u(t(p(u(t)?)?)?)?)?=/.test(a)) out.push({ path: a.slice(a.indexOf('=') + 1) });
    else if (/^--o(u(t(p(u(t)?)?)?)?)?$/.test(a) && args[i + 1] !== undefined) out.push({ path: args[++i] as string });
    else if (/^-[a-zA-Z]*o/.test(a) && !a.startsWith('--')) {
      const rest = a.slice(a.indexOf('o') + 1);
      if (rest !== '') out.push({ path: rest });
      else if (args[i + 1] !== undefined) out.push({ path: args[++i] as string });
    }
  }
  return out;
}

/**
 * Backup files a write leaves next to its targets: `sed -i.bak` / `--in-place=SUFFIX` (a `*` in the
 * suffix stands for the file's name, so `-i'../x/*'` writes elsewhere), `cp/mv/ln/install -b`
 * with `-S`/`--suffix`.
 */
function backups(base: string, args: readonly string[], direct: WriteTarget[]): WriteTarget[] {
  let suffix: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') break;
    if (base === 'sed') {
      if (a.startsWith('--in-place=')) suffix = a.slice(11);
      else if (/^-[a-zA-Z]*i./.test(a) && !a.startsWith('--')) suffix = a.slice(a.indexOf('i') + 1);
    } else if (['cp', 'mv', 'ln', 'install'].includes(base)) {
      if (a === '-S' || a === '--suffix') suffix = args[i + 1] ?? null;
      else if (a.startsWith('--suffix=')) suffix = a.slice(9);
      else if (/^-[a-zA-Z]*S./.test(a) && !a.startsWith('--')) suffix = a.slice(a.indexOf('S') + 1);
      else if ((a === '-b' || a.startsWith('--backup')) && suffix === null) suffix = '~';
    }
  }
  if (suffix === null || suffix === '') return [];
  const s = suffix;
  return direct.map((t) => {
    const file = t.intoName !== undefined ? `${t.path}/${t.intoName}` : t.path;
    if (!s.includes('*')) return { path: `${file}${s}` };
    const slash = file.lastIndexOf('/');
    const name = file.slice(slash + 1);
    const replaced = s.replaceAll('*', name);
    return {
      path: replaced.includes('/')
        ? slash === -1
          ? replaced
          : `${file.slice(0, slash)}/${replaced}`
        : `${file.slice(0, slash + 1)}${replaced}`,
    };
  });
}

function writeTargetsOf(base: string, args: readonly string[]): WriteTarget[] {
  if (!['cp', 'mv', 'install', 'ln', 'tee', 'touch', 'truncate', 'sed', 'chmod', 'patch'].includes(base)) return [];
  const valueOpt = VALUE_OPTS[base];
  const { options, operands: plain } = splitLoose(args, (a) => valueOpt?.test(a) ?? false);
  let targetDir: string | null = null;
  let scriptGiven = false;
  for (const { word, value } of options) {
    if (base === 'sed' && /^(-e|-f|--expression|--file)/.test(word)) scriptGiven = true;
    if (/^--target-directory=/.test(word)) targetDir = word.slice(word.indexOf('=') + 1);
    if (word === '-t' || word === '--target-directory') targetDir = value ?? null;
  }
  if (base === 'sed') return (scriptGiven ? plain : plain.slice(1)).map((path) => ({ path }));
  if (base === 'chmod') return plain.slice(1).map((path) => ({ path }));
  if (base === 'tee' || base === 'touch' || base === 'truncate' || base === 'patch')
    return plain.slice(0, base === 'patch' ? 1 : undefined).map((path) => ({ path }));
  if (targetDir !== null) return plain.map((src) => ({ path: targetDir as string, intoName: basename(src), folder: true }));
  const dest = plain[plain.length - 1];
  if (dest === undefined || plain.length < 2) return [];
  return plain.slice(0, -1).map((src) => ({ path: dest, intoName: basename(src), folder: dest.endsWith('/') || plain.length > 2 }));
}
