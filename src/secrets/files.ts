/*
 * Secret files by CONTENT: the one judgement behind every wall that hides a file from the agent (the file
 * tools, the sandbox's masks, the harness's clean checkouts) and behind the commit gate (no credential
 * committed). A tracked file is the repository's content: it is masked only when what it holds is a
 * credential (src/secrets/credential-content.ts: private keys, token formats, credential-file formats
 * recognised by their syntax), never for its name. A dotenv library's `tests/.env` of fixtures is
 * visible; a `.env`, a `fixtures/a.txt` or a `.pgpass` holding a real-shaped credential is not.
 *
 * What is still decided without reading text, and why:
 * - Binary keystores (PKCS#12 `.p12`/`.pfx`, Java `.jks`/`.jceks`, KeePass `.kdbx`, DER private keys,
 *   OpenPGP secret-key packets) carry no text a rule could read: they are recognised by their leading
 *   bytes (binaryCredential), again whatever they are named.
 * - Source code and documentation are the program and its manual: they are not masked by content (a test
 *   carries fake tokens, masking a module breaks the build); a token in them is still removed from every
 *   artifact by the redactor, and `permissions.masked` hides a file the maintainer names.
 * - isSecretPath keeps the conventional names of secret files (`.env`, `id_rsa`, `.netrc` …) as a HINT for
 *   the places that have no content to judge (a `.gitignore` line that stops ignoring `.env`); it is never
 *   a wall by itself.
 */

import { findCredentials, type CredentialMatch } from './credential-content.js';

export { credentialValue, findCredentials, credentialRule, type CredentialMatch } from './credential-content.js';

/** Conventional names of secret files: a hint where no content exists (see the header), never a wall. */
const SECRET_NAME_HINTS = [
  /^\.env(\..+)?$/i,
  /^\.envrc$/,
  /^\.dev\.vars(\..+)?$/,
  /^id_(rsa|dsa|ecdsa|ed25519)(_sk)?$/,
  /\.(p12|pfx|jks|keystore|ppk|kdbx|gpg|pkcs12)$/i,
  /^\.git-credentials$/,
  /^_?\.?netrc$/,
  /^\.vault-token$/,
  /^\.htpasswd$/,
  /^secrets?\.(ya?ml|json|toml|txt|env|ini)$/i,
  /^(master|credentials\.yml)\.key$/,
  /\.tfstate(\.backup)?$/i,
  /^kubeconfig(\..+)?$/i,
];

/** Templates that name variables without values. */
const TEMPLATE = /^(\.env|\.dev\.vars)\.(example|sample|template|dist|defaults)$|\.(example|sample|template)$/i;

/** Names that may carry a token (`.npmrc`, `.pypirc`, `credentials*`, `*.pem`, `*.key`): a hint for ignore rules. */
const TOKEN_FILE = [
  /^\.npmrc$/,
  /^\.pypirc$/,
  /^\.yarnrc(\.yml)?$/,
  /^credentials(\.(json|ya?ml|toml|ini|txt|cfg|conf|csv))?$/i,
  /^\.pgpass$/,
  /\.(pem|key|asc|crt|cer)$/i,
];

/** Source code (and its source maps) and documentation: not judged by content (see the header). */
const PROGRAM_OR_MANUAL =
  /\.(c|cc|cpp|cxx|h|hh|hpp|cs|fs|go|rs|java|kt|kts|scala|groovy|swift|m|mm|js|mjs|cjs|jsx|ts|mts|cts|tsx|vue|svelte|py|pyi|rb|php|pl|pm|lua|dart|ex|exs|erl|hs|ml|clj|jl|zig|nim|cr|elm|map|md|mdx|rst|adoc)$/i;

const base = (rel: string): string => rel.slice(rel.lastIndexOf('/') + 1);

/** A conventional secret-file name (`.env`, `id_rsa`, `.netrc` …): a hint for ignore rules, never a wall; templates are not. */
export function isSecretPath(rel: string): boolean {
  const b = base(rel);
  return !TEMPLATE.test(b) && SECRET_NAME_HINTS.some((re) => re.test(b));
}

/** Is the file at `rel` judged by its content (everything but source code and documentation)? */
export function isContentCheckedPath(rel: string): boolean {
  return !PROGRAM_OR_MANUAL.test(base(rel));
}

/** Names that conventionally hold a token (`.npmrc`, `*.pem` …): a hint for ignore rules, never a wall. */
export function isTokenFileName(rel: string): boolean {
  const b = base(rel);
  return TOKEN_FILE.some((re) => re.test(b));
}

/** Does `content` hold a credential (any rule of credential-content.ts)? Kept under its old name for callers. */
export function hasToken(content: string): boolean {
  return hasCredentialShape(content);
}

/**
 * Does text hold a credential: a private key, a token of a known format, a credential-file format with a
 * credential-looking value (credential-content.ts)? Fixture values (`password: test`, `BASIC=basic`) do not.
 */
export function hasCredentialShape(content: string): boolean {
  return findCredentials(content).length > 0;
}

/** Leading bytes of binary credential containers (a keystore's text cannot be read by a rule). */
export function binaryCredential(buf: Buffer): string | undefined {
  const u32 = buf.length >= 4 ? buf.readUInt32BE(0) : 0;
  if (u32 === 0xfeedfeed) return 'java-keystore';
  if (u32 === 0xcececece) return 'java-jceks';
  if (u32 === 0x03d9a29a && buf.length >= 8 && (buf.readUInt32BE(4) & 0xfdffffff) === 0x65fb4bb5) return 'keepass-database';
  // DER: SEQUENCE (short or long length), then INTEGER version: 3 and a SEQUENCE is a PKCS#12 PFX; 0 or 1
  // followed by an INTEGER, SEQUENCE or OCTET STRING is a PKCS#1, PKCS#8 or SEC1 private key.
  if (buf[0] === 0x30) {
    const len = buf[1] ?? 0;
    const at = len < 0x80 ? 2 : 2 + (len & 0x7f);
    if (buf[at] === 0x02 && buf[at + 1] === 0x01) {
      const version = buf[at + 2];
      const next = buf[at + 3];
      if (version === 3 && next === 0x30) return 'pkcs12';
      if ((version === 0 || version === 1) && (next === 0x02 || next === 0x30 || next === 0x04)) return 'der-private-key';
    }
  }
  // OpenPGP secret-key packet (tag 5, old format with a 1- or 2-byte length, or new format) of a v4/v5 key.
  const pgpVersion = buf[0] === 0x94 || buf[0] === 0xc5 ? buf[2] : buf[0] === 0x95 ? buf[3] : undefined;
  if (pgpVersion === 4 || pgpVersion === 5) return 'openpgp-secret-key';
  return undefined;
}

/** Text or binary: a NUL byte in the first 8 KiB says binary (git's own rule). */
export function isBinary(buf: Buffer): boolean {
  return buf.subarray(0, 8192).includes(0);
}

/**
 * Does the file at `rel` with content `buf` hold a secret? The rule that says so (`assignment`, `pgpass`,
 * `secretlint/aws`, `pkcs12` …), or undefined. Source code and documentation are not judged.
 */
export function secretContentRule(rel: string, buf: Buffer): string | undefined {
  if (isBinary(buf)) return binaryCredential(buf);
  if (!isContentCheckedPath(rel)) return undefined;
  return findCredentials(buf.toString('utf8'))[0]?.rule;
}

/** The secret strings a file holds (for the run's redactor); empty for binary files and unjudged paths. */
export function secretStringsIn(rel: string, buf: Buffer): string[] {
  if (isBinary(buf) || !isContentCheckedPath(rel)) return [];
  return findCredentials(buf.toString('utf8')).flatMap((m: CredentialMatch) => m.values);
}
