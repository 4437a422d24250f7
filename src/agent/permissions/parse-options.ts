/** How a long option takes its value: none, required (`--o=v` or `--o v`), optional (only `--o=v`). */
export type Arity = 'none' | 'req' | 'opt';

/**
 * The options a command accepts, in getopt's terms. Short letters: `flags` take no value, `req` take one
 * (attached `-n5` or separate `-n 5`), `opt` take an optional attached one (`-i.bak`). `numeric`: `-20`
 * is accepted (head, tail). `abbrev`: unique prefixes of long options are accepted (GNU getopt_long);
 * anything not declared makes the command unknown, hence not safe.
 */
export interface OptionTable {
  flags?: string;
  req?: string;
  opt?: string;
  long?: Record<string, Arity>;
  abbrev?: boolean;
  numeric?: boolean;
  /** Options stop at the first operand (POSIX), instead of GNU permutation. */
  posix?: boolean;
  /** Known options that still make the command not safe (sed -i writes): a rule must name them. */
  danger?: readonly string[];
}

export interface ParsedOption {
  /** `-n` or `--lines` (the full long name, even when abbreviated). */
  name: string;
  value?: string;
  /** The argv words this option occupied. */
  raw: string[];
}

export type ParsedArgs =
  { ok: true; options: ParsedOption[]; operands: string[] } | { ok: false; bad: string; why: 'unknown' | 'ambiguous' | 'missing-value' };

/** The long option `name` (without `--`) stands for, by exact name or unique abbreviation. */
export function matchLong(table: OptionTable, name: string): { full: string; arity: Arity } | 'ambiguous' | null {
  const long = table.long ?? {};
  const exact = long[name];
  if (exact !== undefined) return { full: name, arity: exact };
  if (table.abbrev === false || name === '') return null;
  const hits = Object.keys(long).filter((l) => l.startsWith(name));
  if (hits.length === 0) return null;
  if (hits.length > 1) return 'ambiguous';
  return { full: hits[0] as string, arity: long[hits[0] as string] as Arity };
}

/** Parse `args` (the words after the command name) against a table, as getopt_long would. */
export function parseOptions(table: OptionTable, args: readonly string[]): ParsedArgs {
  const options: ParsedOption[] = [];
  const operands: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq === -1 ? a.slice(2) : a.slice(2, eq);
      const m = matchLong(table, name);
      if (m === null) return { ok: false, bad: a, why: 'unknown' };
      if (m === 'ambiguous') return { ok: false, bad: a, why: 'ambiguous' };
      if (m.arity === 'none' && eq !== -1) return { ok: false, bad: a, why: 'unknown' };
      if (m.arity === 'req' && eq === -1) {
        if (i + 1 >= args.length) return { ok: false, bad: a, why: 'missing-value' };
        options.push({ name: `--${m.full}`, value: args[i + 1] as string, raw: [a, args[i + 1] as string] });
        i++;
        continue;
      }
      options.push({ name: `--${m.full}`, ...(eq !== -1 ? { value: a.slice(eq + 1) } : {}), raw: [a] });
      continue;
    }
    if (a.startsWith('-') && a !== '-') {
      if (table.numeric && /^-\d+$/.test(a)) {
        options.push({ name: '-#', value: a.slice(1), raw: [a] });
        continue;
      }
      for (let k = 1; k < a.length; k++) {
        const ch = a[k] as string;
        if (table.flags?.includes(ch)) {
          options.push({ name: `-${ch}`, raw: [a] });
          continue;
        }
        if (table.opt?.includes(ch)) {
          const rest = a.slice(k + 1);
          options.push({ name: `-${ch}`, ...(rest !== '' ? { value: rest } : {}), raw: [a] });
          break;
        }
        if (table.req?.includes(ch)) {
          const rest = a.slice(k + 1);
          if (rest !== '') options.push({ name: `-${ch}`, value: rest, raw: [a] });
          else {
            if (i + 1 >= args.length) return { ok: false, bad: a, why: 'missing-value' };
            options.push({ name: `-${ch}`, value: args[i + 1] as string, raw: [a, args[i + 1] as string] });
            i++;
          }
          break;
        }
        return { ok: false, bad: a.length > 2 ? `-${ch} (in ${a})` : a, why: 'unknown' };
      }
      continue;
    }
    operands.push(a);
    if (table.posix) {
      operands.push(...args.slice(i + 1));
      break;
    }
  }
  return { ok: true, options, operands };
}

/** Does a parsed option list hold one of `names` (`-i`, `--in-place`)? */
export const hasOption = (p: { options: ParsedOption[] }, ...names: string[]): boolean => p.options.some((o) => names.includes(o.name));

/**
 * Options and operands of a command whose option table is not known in full: a word starting with `-`
 * (not `-` alone) is an option, and takes the next word as its value when `takesValue` says so; `--`
 * ends the options. For finding operands (search paths, write targets), not for judging options.
 */
export function splitLoose(
  args: readonly string[],
  takesValue: (option: string) => boolean,
): { options: Array<{ word: string; value?: string }>; operands: string[] } {
  const options: Array<{ word: string; value?: string }> = [];
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') operands.push(a);
    else if (!takesValue(a)) options.push({ word: a });
    else {
      const value = args[++i];
      options.push(value === undefined ? { word: a } : { word: a, value });
    }
  }
  return { options, operands };
}
