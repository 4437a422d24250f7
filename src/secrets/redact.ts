/**
 * The one redactor: every artifact writer (transcript, evidence, summary, report, tool-output files, comments,
 * PR bodies, log lines, memory) passes text through here. Known values go first (longest first), then every
 * token rule; each replaced span becomes the one placeholder.
 */
import { leakForms, secretValues } from './known-values.js';
import { OWN_RULES } from './own-rules.js';
import { REDACTED } from './placeholder.js';
import type { TokenRule } from './rule.js';
import { SECRETLINT_RULES } from './secretlint-rules.js';

/** Own rules that keep a readable part (key name, scheme, header) and so run before secretlint's whole-match ones. */
const STRUCTURAL = new Set([
  'private-key-block',
  'url-credentials',
  'authorization-header',
  'bearer-token',
  'npmrc-auth',
  'secret-assignment',
]);

/** Every token rule: the own structural shapes first (they keep the readable parts), then secretlint's, then the loose prefixes. */
export const TOKEN_RULES: readonly TokenRule[] = [
  ...OWN_RULES.filter((r) => STRUCTURAL.has(r.id)),
  ...SECRETLINT_RULES,
  ...OWN_RULES.filter((r) => !STRUCTURAL.has(r.id)),
];

/**
 * The documented, non-secret prefixes of token formats and the armor line of a key block: kept before the
 * placeholder so a reader sees what kind of credential was removed (`ghp_[REDACTED]`).
 */
const PUBLIC_PREFIX =
  /^(?:github_pat_|gh[pousr]_|sk-ant-|sk-(?:proj|svcacct|admin)-|[sr]k_(?:live|test)_|xox[abposr]-|xapp-|npm_|gl(?:pat|dt|rt|ptt|cbt|oas|soat|ffct)-|shp(?:pa|ca|at|ss)_|lin_api_|ops_|AKIA|ASIA|AIza|SG\.|-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)/;

function publicPrefix(secret: string): string {
  const m = PUBLIC_PREFIX.exec(secret);
  return m && m[0].length < secret.length ? m[0] : '';
}

/** Replaces the spans in `text` (which may overlap) by the placeholder. */
function replaceSpans(text: string, spans: ReadonlyArray<readonly [number, number]>): string {
  if (spans.length === 0) return text;
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [start, end] of sorted) {
    if (end <= at) continue;
    out += start >= at ? text.slice(at, start) + publicPrefix(text.slice(start, end)) + REDACTED : '';
    at = end;
  }
  return out + text.slice(at);
}

/** The known values' leak forms, longest first (so a value containing another is replaced whole). */
function knownForms(known: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const v of secretValues(process.env, known)) for (const f of leakForms(v)) forms.add(f);
  return [...forms].sort((a, b) => b.length - a.length);
}

const FIRST = TOKEN_RULES.filter((r) => STRUCTURAL.has(r.id));
const TOKENS = TOKEN_RULES.filter((r) => !STRUCTURAL.has(r.id));

/**
 * Known values first, then the structural rules one by one (each keeps a readable part), then every token
 * rule on the same text with their spans united: tokens printed without a separator between them (a test
 * report that drops newlines) cannot hide one another, as a rule that ate the next token's prefix would.
 */
function redactWith(text: string, forms: readonly string[]): string {
  let out = text;
  for (const f of forms) if (out.includes(f)) out = out.split(f).join(REDACTED);
  for (const rule of FIRST) out = replaceSpans(out, rule.find(out));
  const at = out;
  return replaceSpans(
    at,
    TOKENS.flatMap((rule) => rule.find(at)),
  );
}

/**
 * `text` with every secret replaced by `[REDACTED]`: the values of the process's secret-named environment
 * variables and `known` (in raw, URL-encoded and base64 forms), then every token rule's matches.
 */
export function redactText(text: string, known: readonly string[] = []): string {
  if (text.length === 0) return text;
  return redactWith(text, knownForms(known));
}

/** Keys whose string values are secrets whatever they look like (`token`, `apiKey`, `client_secret`, `Authorization`). */
export function isSecretKey(key: string): boolean {
  const k = key.toLowerCase().replace(/[_-]/g, '');
  return /(?:token|secret|password|passwd|apikey|accesskey|privatekey|authorization|credentials?)$/.test(k);
}

/**
 * A JSON-safe copy of `value` with every string redacted (keys kept; strings under secret-named keys replaced
 * whole). Objects with toJSON (dates) are serialized first; errors keep name, message and stack; cycles end
 * (an object met again among its own ancestors), shared references are copied.
 */
export function redactDeep<T>(value: T, known: readonly string[] = []): T {
  const forms = knownForms(known);
  const seen = new WeakSet<object>();
  const walk = (v: unknown, key: string | undefined): unknown => {
    if (typeof v === 'string') return key !== undefined && isSecretKey(key) && v !== '' ? REDACTED : redactWith(v, forms);
    if (v === null || typeof v !== 'object') return v;
    if (seen.has(v)) return '[Circular]';
    seen.add(v);
    try {
      return walkObject(v, key);
    } finally {
      seen.delete(v); // only ancestors count: an object shared by two fields is copied twice, not a cycle
    }
  };
  const walkObject = (v: object, key: string | undefined): unknown => {
    if (v instanceof Error) return walk({ ...v, name: v.name, message: v.message, stack: v.stack }, key);
    const j = v as { toJSON?: () => unknown };
    if (typeof j.toJSON === 'function') return walk(j.toJSON(), key);
    if (Array.isArray(v)) return v.map((x) => walk(x, undefined));
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = walk(x, k);
    return out;
  };
  return walk(value, undefined) as T;
}

/** The id of the first confident rule that matches `text` (a file holding a credential), or undefined. */
export function looksLikeSecretContent(text: string): string | undefined {
  for (const rule of TOKEN_RULES) if (rule.confident && rule.find(text).length > 0) return rule.id;
  return undefined;
}
