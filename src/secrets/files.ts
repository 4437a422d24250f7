/*
 * Secret files by path: the one pattern set behind every wall that hides a file from the agent (the
 * file tools, the sandbox's masks, the Bash policy) and behind the commit gate (no new secret file).
 * Names and folders that hold credentials by convention, after the path rules of secret scanners
 * (gitleaks' and GitHub's push-protection file rules): dotenv files, private keys and keystores,
 * cloud and cluster credentials, Rails and Wrangler secrets, Terraform state, vault tokens. Templates
 * (`.env.example`) stay readable. Whether a file holds a secret by content is a separate question
 * (`isTokenFileName` says which names are worth reading for it).
 */

import { looksLikeSecretContent } from './redact.js';

/** Base names that are secrets whatever they hold. */
const SECRET_BASE = [
  /^\.env(\..+)?$/i, // .env, .env.local, .env.production …
  /^\.envrc$/,
  /^\.dev\.vars(\..+)?$/, // Cloudflare Wrangler's local secrets
  /^id_(rsa|dsa|ecdsa|ed25519)(_sk)?$/,
  /\.(p12|pfx|jks|keystore|ppk|kdbx|gpg|pkcs12)$/i,
  /^\.git-credentials$/,
  /^\.netrc$/,
  /^_netrc$/,
  /^\.vault-token$/,
  /^\.htpasswd$/,
  /^secrets?\.(ya?ml|json|toml|txt|env|ini)$/i,
  /^(master|credentials\.yml)\.key$/, // Rails: config/master.key, config/credentials/<env>.key
  /\.tfstate(\.backup)?$/i, // Terraform state holds every secret of the resources it made
  /^kubeconfig(\..+)?$/i,
  /^(service[-_]?account|gcp[-_]?credentials|application_default_credentials)([-_.].*)?\.json$/i,
];

/** Whole paths (POSIX, worktree-relative, any depth) that are secrets. */
const SECRET_PATH = [
  /(^|\/)\.kube\/config$/,
  /(^|\/)\.aws\/credentials$/,
  /(^|\/)\.docker\/config\.json$/,
  /(^|\/)config\/credentials\/[^/]+\.key$/,
  /(^|\/)\.ssh\/[^/]+$/,
];

/** Folders whose data files are secrets (`secrets/db.txt`, `.secrets/token`); source code under them is not. */
const SECRET_DIR = /(^|\/)\.?secrets?\//i;

/** Templates that name variables without values stay readable (tests and docs read them). */
const TEMPLATE = /^(\.env|\.dev\.vars)\.(example|sample|template|dist|defaults)$|\.(example|sample|template)$/i;

/** Names that may carry a secret in their content (`.npmrc`, `.pypirc`, `credentials*`, `*.pem`, `*.key`): read them to know. */
const TOKEN_FILE = [
  /^\.npmrc$/,
  /^\.pypirc$/,
  /^\.yarnrc(\.yml)?$/,
  /^credentials(\.(json|ya?ml|toml|ini|txt|cfg|conf|csv))?$/i,
  /^\.pgpass$/,
  /\.(pem|key|asc|crt|cer)$/i,
];

/** Data and config files whose content is read to find a credential; source code is not (tests carry fake tokens). */
const DATA_FILE = /\.(json|ya?ml|toml|ini|cfg|conf|properties|txt|xml|tfvars|hcl)$|^[^.]+$/i;

const base = (rel: string): string => rel.slice(rel.lastIndexOf('/') + 1);

/** A secret by its path alone (`.env`, `id_rsa`, `config/master.key`, `secrets/db.txt` …); templates are not. */
export function isSecretPath(rel: string): boolean {
  const b = base(rel);
  if (TEMPLATE.test(b)) return false;
  if (SECRET_BASE.some((re) => re.test(b)) || SECRET_PATH.some((re) => re.test(rel))) return true;
  return SECRET_DIR.test(rel) && (DATA_FILE.test(b) || TOKEN_FILE.some((re) => re.test(b)));
}

/** A name whose content decides (`.npmrc`, `*.pem` …), or a data/config file worth reading for a credential. */
export function isContentCheckedPath(rel: string): boolean {
  const b = base(rel);
  return TOKEN_FILE.some((re) => re.test(b)) || DATA_FILE.test(b);
}

/** Names that hold a secret only when their content carries one. */
export function isTokenFileName(rel: string): boolean {
  const b = base(rel);
  return TOKEN_FILE.some((re) => re.test(b));
}

/** In a token file: an assignment of a token or password (`_authToken=`, `password:`), a key block, a netrc password. */
const TOKEN_CONTENT =
  /(_authToken|_auth|_password|npmAuthToken|npmAuthIdent|password|passwd|secret|token|aws_access_key_id|aws_secret_access_key|private_key|"auth")\s*["']?\s*[=:]/i;

/** In any data file: what is a credential by its shape, never a fixture's `password: test`. */
const CREDENTIAL_SHAPE = [
  /-----BEGIN [A-Z ]*PRIVATE KEY( BLOCK)?-----/,
  /"type"\s*:\s*"service_account"[\s\S]*"private_key"|"private_key"[\s\S]*"type"\s*:\s*"service_account"/,
  /^\s*client-key-data\s*:\s*\S{40,}/m, // a kubeconfig's client key
  /\b(AKIA|ASIA)[A-Z0-9]{16}\b[\s\S]{0,200}\b[A-Za-z0-9/+=]{40}\b/, // an AWS key id with its secret
];

/** Does a token file's content (`.npmrc`, `credentials`, `*.pem`) carry a token or password? */
export function hasToken(content: string): boolean {
  return TOKEN_CONTENT.test(content) || /^\s*machine\s+\S+.*\bpassword\b/m.test(content) || hasCredentialShape(content);
}

/**
 * Does any data file's content hold a credential: by its shape (a private key, a service-account key, a
 * kubeconfig key), or a token one of the confident token rules recognises (looksLikeSecretContent, the
 * same rules the redactor applies)?
 */
export function hasCredentialShape(content: string): boolean {
  return CREDENTIAL_SHAPE.some((re) => re.test(content)) || looksLikeSecretContent(content) !== undefined;
}
