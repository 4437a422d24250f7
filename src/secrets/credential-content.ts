/**
 * Credentials by content: what makes a file a secret is what it holds, wherever it lives and whatever it
 * is named. Four kinds of evidence, each returning the secret strings it found (the run's redactor learns
 * them, so a copy under another name is caught too):
 *
 * - a token format of the maintained set (secretlint's recommended preset and the confident own rules,
 *   TOKEN_RULES) or one of the vendor token formats below;
 * - a private key (PEM/OpenSSH/PGP armor with a body, a PuTTY key);
 * - a credential-file format, recognised by its syntax, not its name: a secret-named key assigned a
 *   credential-looking value in any of the syntaxes tools keep them in (`key = v` ini/cfg/toml/properties,
 *   `key: v` YAML, `"key": "v"` JSON, `:key: v` Ruby YAML, `<key>v</key>` and `key="…" value="v"` XML,
 *   `key v` netrc/msmtp/fetchmail/redis, `K n/key/V n/v` Subversion), a pgpass line
 *   (`host:port:db:user:password`), a password-hash line (htpasswd, shadow), a URL with a password;
 * - a file that is one random-looking token and nothing else (`config/master.key`, `.vault-token`).
 *
 * A fixture is not a credential: `password: test`, `BASIC=basic`, `SECRET=xxx`, `changeme`, `<token>`,
 * `${VAR}`, vendors' documented example keys, short or low-entropy values and prose are never matched
 * (credentialValue). The rules are unit-tested against two corpora (test/security/secrets-by-content*).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { TOKEN_RULES } from './redact.js';

/**
 * The rules as code: a hash of this module's own file (in the Action's bundle, of the bundle). A cache of
 * what the rules judged (the agent's sanitized git history) is keyed by it, so a changed rule never reuses
 * a store built by the old one, without anyone remembering to bump a version.
 */
let fingerprint: string | undefined;

/** Computed on first use, not at import: in the Action's bundle the file read is the whole bundle. */
export function rulesFingerprint(): string {
  if (fingerprint === undefined) {
    try {
      fingerprint = createHash('sha256')
        .update(readFileSync(new URL(import.meta.url)))
        .digest('hex')
        .slice(0, 16);
    } catch {
      fingerprint = 'unreadable';
    }
  }
  return fingerprint;
}

export interface CredentialMatch {
  /** Which rule matched (`assignment`, `pgpass`, `secretlint/aws`, …). */
  rule: string;
  /** The secret strings found (never whole files of ordinary text). */
  values: string[];
}

/** Vendor token formats the maintained preset does not cover, each from the vendor's documentation. */
const VENDOR_TOKENS: ReadonlyArray<readonly [string, RegExp]> = [
  ['vault-token', /\bhv[sbr]\.[A-Za-z0-9_-]{24,}/g], // HashiCorp Vault service, batch and recovery tokens
  ['terraform-cloud-token', /\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}/g],
  ['pulumi-token', /\bpul-[a-f0-9]{40}\b/g],
  ['databricks-token', /\bdapi[a-f0-9]{32}(?:-\d)?\b/g],
  ['digitalocean-token', /\bdo[opr]_v1_[a-f0-9]{64}\b/g],
  ['pypi-token', /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/g],
  ['rubygems-key', /\brubygems_[a-f0-9]{48}\b/g],
  ['google-oauth-client-secret', /\bGOCSPX-[A-Za-z0-9_-]{28}\b/g],
  ['jenkins-secret', /\{AQAAAB[A-Za-z0-9+/]{20,}={0,2}\}/g],
  ['age-secret-key', /\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b/g], // age / SOPS identities
  ['scram-verifier', /\bSCRAM-SHA-(?:1|256)\$\d+:[A-Za-z0-9+/=]{16,}\$[A-Za-z0-9+/=]{20,}:[A-Za-z0-9+/=]{20,}/g], // RFC 5802 stored keys (PostgreSQL, PgBouncer)
];

/** Key names that say their value is a secret (`password`, `imap_pass`, `requirepass`, `secret_key`, `apiToken`, `auth`). */
const SECRET_KEY =
  /(?:secret|token|passw(?:or)?d|passwd|pwd|pass(?:phrase|code)?(?![a-z])|api[_-]?key|access[_-]?key|private[_-]?key|auth(?!or)|credential)/i;
/** …unless the name says the value is about the secret, not the secret (`token_url`, `password_min_length`, `private_key_id`). */
const NOT_A_VALUE =
  /(?:path|file|dir|url|uri|host|endpoint|_id|Id|name|type|length|len|ttl|expir\w*|expires_?\w*|method|mode|enabled|required|policy|algorithm|header|prefix|field|format|version|count|provider|scope|env|var)$/i;

const KEY = String.raw`[A-Za-z_][A-Za-z0-9_.-]{0,60}`;
/** `key = v`, `key: v`, `"key": "v"`, `:key: v`, `key => v`, `key := v`, `//host/:_authToken=v` (value on the same line). */
const ASSIGN = new RegExp(
  String.raw`(?:^|[\s{,;(\[/])["']?:?(${KEY})["']?[ \t]*(?:=>|:=|[:=])[ \t]*("[^"\n]*"|'[^'\n]*'|[^\s"',;<>{}\]]+)`,
  'gm',
);
/** `password value` (netrc, msmtp, fetchmail, redis `requirepass`), value quoted or not. */
const SPACED = new RegExp(String.raw`(?:^|[ \t])(${KEY})[ \t]+("[^"\n]+"|'[^'\n]+'|[^\s"']+)`, 'gm');
/** `<password>v</password>`, `<Pass encoding="base64">v</Pass>`. */
const XML_ELEMENT = new RegExp(String.raw`<(${KEY})(?:\s[^>]*)?>([^<\n]+)</\1>`, 'g');
/** `<add key="ClearTextPassword" value="v" />` (NuGet, .NET appSettings). */
const XML_KEY_VALUE = new RegExp(String.raw`key\s*=\s*"(${KEY})"\s+value\s*=\s*"([^"]*)"`, 'gi');
/** Subversion's auth cache (`K 8\npassword\nV 12\nvalue`). */
const SVN_HASH = new RegExp(String.raw`^(${KEY})\nV \d+\n(.+)$`, 'gm');
/** `host:port:database:user:password` (.pgpass). */
const PGPASS = /^[^\s:#]+:(?:\d+|\*):[^\s:]+:[^\s:]+:(\S+)$/gm;
/** `user:$apr1$…`, `user:$2y$…`, `user:{SHA}…`, `user:$6$…` (htpasswd, shadow). */
const PASSWORD_HASH = /^[\w.@-]+:((?:\$(?:apr1|2[aby]|[156]|y)\$[^\s:]{8,})|\{SHA\}[A-Za-z0-9+/=]{27,})/gm;
/** `scheme://user:password@host`. */
const URL_PASSWORD = /\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:'"<>]+:([^\s/@'"<>]+)@/gi;
const PRIVATE_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/g;
const PUTTY_KEY = /PuTTY-User-Key-File-\d+:[\s\S]*?Private-Lines:\s*\d+\r?\n([A-Za-z0-9+/=\r\n]{16,}?)(?:\r?\nPrivate-|$)/g;

/** Values that declare themselves not secret: placeholders, templates, documented examples. */
const PLACEHOLDER =
  /example|change[-_ ]?(?:me|it|this)|placeholder|dummy|fake|sample|your|redacted|insecure|replace|todo|fixme|x{4}|\*{3}|\.{3}|^<.*>$|^\[.*\]$/i;
/**
 * Words a fixture value is made of (`test-secret`, `mypassword`) that a real token may also hold by chance or
 * by name (`sk_test_…`, a token minted for a "secret" service): they are taken out and the rest is judged.
 */
const FIXTURE_WORDS = /test|secret|passw(?:or)?d|passwd|pass/gi;
/** References to a value kept elsewhere: `${VAR}`, `$VAR`, `%(var)s`, `{{ x }}`, `<%= x %>`, `#{x}`, `ENV[…]`. */
const REFERENCE = /^\$|\$\{|\{\{|<%|%\(|^#\{|^ENV\[|^env\.|^process\.env/i;

function unquote(v: string): string {
  const t = v.trim();
  return /^(["']).*\1$/.test(t) ? t.slice(1, -1) : t;
}

function entropy(v: string): number {
  const counts = new Map<string, number>();
  for (const ch of v) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / v.length) * Math.log2(n / v.length);
  return bits;
}

/** Character classes of a value: lower, upper, digit, symbol (`-`, `_`, `.` separate words and do not count). */
function classes(v: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9\-_.]/].filter((re) => re.test(v)).length;
}

/**
 * Is `raw` (a value assigned to a secret-named key) a credential rather than a fixture? Long random-looking
 * values (16+ characters of two classes or more, high entropy) and human-made passwords (8+ characters of
 * three classes) are; placeholders, references, prose, booleans, numbers and short or plain values are not.
 */
export function credentialValue(raw: string): boolean {
  const v = unquote(raw);
  if (v.length < 8 || /\s/.test(v) || REFERENCE.test(v) || PLACEHOLDER.test(v) || /:\/\//.test(v)) return false;
  const rest = v.replace(FIXTURE_WORDS, '');
  return rest === v ? randomLooking(v) : rest.length >= 8 && randomLooking(rest);
}

/** Not a word, an identifier, code or a number, and random enough: 16+ characters of two classes, or three classes. */
function randomLooking(v: string): boolean {
  if (/^(?:true|false|null|none|nil|undefined|on|off|yes|no)$/i.test(v) || /^[\d.,:-]+$/.test(v) || /(.)\1{5,}/.test(v)) return false;
  // Code, not a value: a call, an index, a template, an escape (`this.tokenMap.find(node`, `!!o.mode\\n`).
  if (/[()[\]`\\]/.test(v)) return false;
  // An identifier or a path made of words and numbers (`pgpass:src/copy-into-src.txt`, `bcrypt-sha256`) is no credential.
  if (v.split(/[-_./:@]+/).every((part) => /^[A-Za-z]*$/.test(part) || /^\d+$/.test(part))) return false;
  const c = classes(v);
  const h = entropy(v);
  return (v.length >= 16 && c >= 2 && h >= 3.3) || (c >= 3 && h >= 2.8);
}

/**
 * A token a maintained rule found: not a documented example (`AKIAIOSFODNN7EXAMPLE`) or a filled-in
 * placeholder (`sk_test_xxxx…`); in a connection string or basic-auth URL, the password must be a credential.
 */
function realToken(v: string): boolean {
  const url = /^[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:([^\s/?#@]*)@/i.exec(v);
  if (url) return credentialValue(url[1] ?? '');
  return !/example|x{4}|X{4}|\*{3}|0{8}|(.)\1{7,}/i.test(v) && entropy(v) >= 3;
}

const secretKey = (k: string): boolean => SECRET_KEY.test(k) && !NOT_A_VALUE.test(k);

function keyed(text: string, re: RegExp): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(re)) if (m[1] && m[2] && secretKey(m[1]) && credentialValue(m[2])) out.push(unquote(m[2]));
  return out;
}

function grouped(text: string, re: RegExp, ok: (v: string) => boolean = credentialValue): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(re)) {
    const v = m[1] ?? m[0];
    if (ok(v)) out.push(unquote(v));
  }
  return out;
}

/** A file that is one random-looking token (`config/master.key`, `.vault-token`), not a git object id or a version. */
function bareToken(text: string): string[] {
  const t = text.trim();
  if (t.length < 16 || t.length > 512 || !/^[A-Za-z0-9+/_.~-]+=*$/.test(t) || /^[0-9a-f]{40}$/.test(t)) return [];
  // A path or a listing repeats its words (`sqlite3/gen/sqlite3/sqlite3.o`); a random token repeats no 4 characters.
  for (let i = 0; i + 4 <= t.length; i++) if (t.indexOf(t.slice(i, i + 4), i + 1) !== -1) return [];
  return credentialValue(t) && entropy(t) >= 3.5 ? [t] : [];
}

function tokenMatches(text: string): CredentialMatch[] {
  const out: CredentialMatch[] = [];
  for (const rule of TOKEN_RULES) {
    if (!rule.confident) continue;
    const values = rule
      .find(text)
      .map(([a, b]) => text.slice(a, b))
      .filter(realToken);
    if (values.length) out.push({ rule: rule.id, values });
  }
  for (const [rule, re] of VENDOR_TOKENS) {
    const values = [...text.matchAll(re)].map((m) => m[0]).filter(realToken);
    if (values.length) out.push({ rule, values });
  }
  return out;
}

const FORMATS: ReadonlyArray<readonly [string, (text: string) => string[]]> = [
  ['private-key', (t) => grouped(t, PRIVATE_KEY, (v) => v.replace(/-----[^-]+-----|\s/g, '').length >= 40)],
  ['putty-key', (t) => grouped(t, PUTTY_KEY, (v) => v.replace(/\s/g, '').length >= 16)],
  ['assignment', (t) => keyed(t, ASSIGN)],
  ['xml-element', (t) => keyed(t, XML_ELEMENT)],
  ['xml-key-value', (t) => keyed(t, XML_KEY_VALUE)],
  ['svn-auth', (t) => keyed(t, SVN_HASH)],
  ['spaced-assignment', (t) => keyed(t, SPACED)],
  ['pgpass', (t) => grouped(t, PGPASS)],
  ['password-hash', (t) => grouped(t, PASSWORD_HASH, () => true)],
  ['url-password', (t) => grouped(t, URL_PASSWORD)],
  ['bare-token', bareToken],
];

/** Every credential `text` holds, by rule, with the secret strings found; empty for ordinary text and fixtures. */
export function findCredentials(text: string): CredentialMatch[] {
  const out = tokenMatches(text);
  for (const [rule, find] of FORMATS) {
    const values = find(text);
    if (values.length) out.push({ rule, values: [...new Set(values)] });
  }
  return out;
}

/** The first rule by which `text` holds a credential, or undefined. */
export function credentialRule(text: string): string | undefined {
  return findCredentials(text)[0]?.rule;
}
