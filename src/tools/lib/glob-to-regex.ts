const SPECIAL = /[.+^$()|\\]/;

function translate(p: string): string {
  let out = '';
  let i = 0;
  let depth = 0;
  while (i < p.length) {
    const c = p[i] as string;
    if (c === '\\' && i + 1 < p.length) {
      out += (p[i + 1] as string).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      i += 2;
    } else if (c === '*') {
      if (p[i + 1] === '*' && (i === 0 || p[i - 1] === '/')) {
        if (p[i + 2] === '/') {
          out += '(?:.*/)?';
          i += 3;
        } else if (i + 2 === p.length) {
          out += '.*';
          i += 2;
        } else {
          out += '[^/]*';
          i += 2;
        }
      } else {
        out += '[^/]*';
        i += 1;
      }
    } else if (c === '?') {
      out += '[^/]';
      i += 1;
    } else if (c === '[') {
      const end = p.indexOf(']', i + 2);
      if (end === -1) {
        out += '\\[';
        i += 1;
      } else {
        let body = p.slice(i + 1, end).replace(/\\/g, '\\\\');
        if (body.startsWith('!')) body = '^' + body.slice(1);
        out += `[${body}]`;
        i = end + 1;
      }
    } else if (c === '{') {
      out += '(?:';
      depth += 1;
      i += 1;
    } else if (c === '}' && depth > 0) {
      out += ')';
      depth -= 1;
      i += 1;
    } else if (c === ',' && depth > 0) {
      out += '|';
      i += 1;
    } else {
      out += SPECIAL.test(c) || c === '}' || c === ']' ? `\\${c}` : c;
      i += 1;
    }
  }
  return out + ')'.repeat(depth);
}

/**
 * Compile a glob (`**`, `*`, `?`, `[a-z]`, `[!x]`, `{a,b}`) to a RegExp over '/'-separated relative paths.
 * `*` and `**` also match dot-files. With matchBase, a pattern without '/' matches the file name at any depth
 * (ripgrep / gitignore semantics: `*.ts` finds `src/a.ts`).
 */
export function globToRegex(pattern: string, opts: { matchBase?: boolean } = {}): RegExp {
  let p = pattern.replace(/^\.\//, '');
  if (opts.matchBase && !p.includes('/')) p = `**/${p}`;
  return new RegExp(`^${translate(p)}$`);
}
