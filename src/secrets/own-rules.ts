/**
 * Token shapes the maintained set (secretlint's recommended preset) does not cover, or covers only in their
 * complete, valid form while a cut-off or placeholder-bodied token in a tool's output still leaks. Each names
 * the format's source.
 */
import { regexRule, type TokenRule } from './rule.js';

const SECRET_NAME = String.raw`[A-Za-z0-9_.-]{0,40}(?:secret|token|passw(?:or)?d|pwd|api[_-]?key|access[_-]?key|private[_-]?key|auth(?!or)|credential)[A-Za-z0-9_.-]{0,40}`;

export const OWN_RULES: readonly TokenRule[] = [
  regexRule(
    'private-key-block',
    'RFC 7468 textual encoding: a PRIVATE KEY armor block, also cut off or with an escaped body',
    false,
    /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?!\[REDACTED\])[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/,
  ),
  regexRule(
    'url-credentials',
    'RFC 3986 userinfo: user:password@ (or a long bare token@) in any scheme://',
    false,
    /\b[a-z][a-z0-9+.-]*:\/\/((?:[^\s/?#@:'"<>]+:[^\s/?#@'"<>]+|[^\s/?#@:'"<>]{16,}))@/i,
    1,
  ),
  regexRule(
    'authorization-header',
    'RFC 9110 Authorization / Proxy-Authorization credentials (Bearer, Basic, token)',
    false,
    /\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:bearer|basic|token|digest)?\s*([A-Za-z0-9._~+/=-]{8,})/i,
    1,
  ),
  regexRule('bearer-token', 'RFC 6750 bearer token in prose or a header', false, /\bBearer\s+([A-Za-z0-9._~+/-]{8,}=*)/, 1),
  regexRule(
    'jwt',
    'RFC 7519 compact JWS: base64url JSON header and payload (both start "ey")',
    false,
    /\bey[A-Za-z0-9_-]{10,}\.ey[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*/,
  ),
  regexRule(
    'gitlab-token',
    "GitLab's documented token prefixes (glpat-, gldt-, glrt-, glptt-, glcbt-, gloas-, glsoat-, glffct-)",
    true,
    /gl(?:pat|dt|rt|ptt|cbt|oas|soat|ffct)-[A-Za-z0-9_-]{20,}/,
  ),
  regexRule('google-api-key', 'Google Cloud API key format (AIza + 35 characters)', true, /AIza[0-9A-Za-z_-]{35}/),
  regexRule('stripe-key', "Stripe's documented secret and restricted key prefixes", true, /(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/),
  regexRule(
    'github-token-prefix',
    "GitHub's token prefixes (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_), any length from 20",
    false,
    /(?:gh[pousr]_[A-Za-z0-9_]{20,}|github_pat_[A-Za-z0-9_]{20,})/,
  ),
  regexRule('anthropic-key-prefix', "Anthropic's key prefix (sk-ant-), any length from 10", false, /sk-ant-[A-Za-z0-9_-]{10,}/),
  regexRule(
    'openai-key-prefix',
    "OpenAI's key prefixes (sk-, sk-proj-) with a long body",
    false,
    /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}/,
  ),
  regexRule(
    'slack-token-prefix',
    "Slack's token prefixes (xoxb-, xoxp-, xoxa-, xoxo-, xoxr-, xoxs-, xapp-)",
    false,
    /(?:xox[abposr]|xapp)-[A-Za-z0-9-]{10,}/,
  ),
  regexRule(
    'sendgrid-key-prefix',
    "SendGrid's API key form (SG.<id>.<secret>), without a length or boundary check",
    false,
    /SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/,
  ),
  regexRule(
    'shopify-token-prefix',
    "Shopify's token prefixes (shpat_, shpca_, shppa_, shpss_), any length from 20",
    false,
    /shp(?:at|ca|pa|ss)_[A-Za-z0-9]{20,}/,
  ),
  regexRule('npm-token-prefix', "npm's access token prefix (npm_), any length from 20", false, /npm_[A-Za-z0-9]{20,}/),
  regexRule(
    'aws-key-id',
    "AWS access key id prefixes (AKIA, ASIA, ...), including AWS's documented example keys",
    false,
    /(?:A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)[A-Z0-9]{16}/,
  ),
  regexRule(
    'npmrc-auth',
    '.npmrc _authToken / _auth / _password lines',
    false,
    /(?:_authToken|_auth|_password)\s*=\s*["']?([^\s"'$][^\s"']{3,})/,
    1,
  ),
  {
    id: 'secret-assignment',
    source: 'a high-entropy value (Shannon entropy >= 3 bits per character, 8+ characters) assigned to a secret-named key',
    confident: false,
    find: secretAssignments,
  },
];

const ASSIGNMENT = new RegExp(
  String.raw`(?:^|[^A-Za-z0-9_.-])["']?${SECRET_NAME}["']?\s*(?::=|=>|[:=])\s*["']?([A-Za-z0-9_\-+/=~!@#%^*]{8,})(?=["'\s,;})\]&]|$)`,
  'gid',
);

/** Spans of values assigned to secret-named keys (`API_KEY=…`, `"token": "…"`, `password: …`) that look random. */
function secretAssignments(text: string): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  for (const m of text.matchAll(ASSIGNMENT)) {
    const at = m.indices?.[1];
    const value = m[1];
    if (at && value && looksRandom(value)) spans.push(at);
  }
  return spans;
}

/** Mixed letters and digits (or symbols) with Shannon entropy of at least 3 bits per character. */
export function looksRandom(value: string): boolean {
  if (value.includes('[REDACTED]') || /^[a-z]+$/i.test(value) || /^\d+$/.test(value)) return false;
  if (/^(?:true|false|null|undefined|none)$/i.test(value)) return false;
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / value.length) * Math.log2(n / value.length);
  return bits >= 3;
}
