/** The secrets module: one pattern set, one redactor, one placeholder (docs/security.md). */
export { REDACTED } from './placeholder.js';
export type { TokenRule } from './rule.js';
export { TOKEN_RULES, redactText, redactDeep, looksLikeSecretContent, isSecretKey } from './redact.js';
export { openRedactingFile, writeRedactedFile, writeRedactedFileSync, type RedactingSink } from './redacting-writer.js';
export {
  secretValues,
  isSecretEnvName,
  leakForms,
  MIN_SECRET_LENGTH,
  learnMaskedSecrets,
  forgetMaskedSecrets,
  maskedSecrets,
} from './known-values.js';
