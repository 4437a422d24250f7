import pino, { type Logger } from 'pino';

/** The root logger: JSON to stderr, level from LOG_LEVEL (default warn for the CLI, info for servers). */
const root: Logger = pino(
  {
    level: process.env.LOG_LEVEL ?? 'warn',
    base: undefined,
    redact: {
      paths: ['token', '*.token', 'apiKey', '*.apiKey', 'authorization', '*.authorization', 'headers.authorization'],
      censor: '[redacted]',
    },
  },
  pino.destination(2),
);

/** One child logger per module: `logger('permissions')`. */
export function logger(module: string): Logger {
  return root.child({ module });
}

/** A logger that writes nothing (tests, library callers that bring their own). */
export const silentLogger: Logger = pino({ level: 'silent' });
