/** The one spelling of a removed secret, in every artifact (transcript, evidence, summary, report, comments, logs). */
export const REDACTED = '[REDACTED]';
