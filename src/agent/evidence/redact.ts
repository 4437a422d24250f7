/**
 * Secret redaction for everything the run folder keeps (transcript lines, previews). Known secret values
 * are replaced wherever they appear; common token shapes are replaced even when nobody declared them.
 */

export const REDACTED = '[REDACTED]';

/** Secrets shorter than this are not replaced by value (they would match ordinary text). */
export const MIN_SECRET_LENGTH = 8;

/** Token shapes: the prefix is kept (it says what kind of credential leaked), the rest is replaced. */
const TOKEN_SHAPES: ReadonlyArray<{ re: RegExp; keep: (m: string) => string }> = [
  { re: /\bgithub_pat_[A-Za-z0-9_]{20,}/g, keep: () => 'github_pat_' },
  { re: /\bgh[pousr]_[A-Za-z0-9]{20,}/g, keep: (m) => m.slice(0, 4) },
  { re: /\bsk-ant-[A-Za-z0-9_-]{10,}/g, keep: () => 'sk-ant-' },
  { re: /\bxox[bpoas]-[A-Za-z0-9-]{10,}/g, keep: (m) => m.slice(0, 5) },
  { re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, keep: (m) => m.slice(0, 4) },
  { re: /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g, keep: () => 'Bearer ' },
  {
    re: /-----BEGIN ((?:[A-Z]+ )*PRIVATE KEY)-----[\s\S]*?-----END \1-----/g,
    keep: () => '-----BEGIN PRIVATE KEY-----',
  },
];

/** Replaces every known secret value (>= 8 chars) and every common token shape in `text`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  const values = [...new Set(secrets)].filter((s) => s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  for (const value of values) {
    if (out.includes(value)) out = out.split(value).join(REDACTED);
  }
  for (const { re, keep } of TOKEN_SHAPES) {
    out = out.replace(re, (m) => keep(m) + REDACTED);
  }
  return out;
}

/** Redacts every string inside a JSON-like value (keys are kept); returns a new value. */
export function redactValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redactSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactValue(v, secrets);
    return out;
  }
  return value;
}
