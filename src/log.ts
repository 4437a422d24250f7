import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger } from 'pino';
import { REDACTED, redactText } from './secrets/index.js';

/**
 * Where log lines go: pino-pretty's human-readable lines when stderr is a terminal or LOG_FORMAT=pretty,
 * one JSON object per line otherwise (LOG_FORMAT=json forces it; CI logs and log shippers read JSON).
 * pino-pretty runs in-process (no transport worker) and is loaded only when chosen, so the Action bundle
 * does not carry it; if it cannot be loaded, the lines stay JSON.
 */
export function logDestination(env: NodeJS.ProcessEnv = process.env, isTTY = process.stderr.isTTY === true): DestinationStream {
  const format = env.LOG_FORMAT?.trim().toLowerCase();
  if (format === 'pretty' || (format !== 'json' && isTTY)) {
    try {
      const pretty = createRequire(import.meta.url)('pino-pretty') as (o: Record<string, unknown>) => DestinationStream;
      return pretty({ destination: 2, sync: true, colorize: isTTY, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' });
    } catch {
      /* not installed (e.g. the Action bundle): JSON */
    }
  }
  return pino.destination(2);
}

/**
 * Every log line passes the one redactor on its way out: `dest` receives each serialized line (JSON, before
 * pino-pretty formats it) with token shapes and the values of secret-named environment variables removed,
 * whatever field, message, binding or error stack they were in. Replacing inside a JSON string keeps it valid.
 */
export function redactingDestination(dest: DestinationStream): DestinationStream {
  const inner = dest as DestinationStream & { flush?: (cb?: () => void) => void; flushSync?: () => void };
  return {
    write: (line: string) => inner.write(redactText(line)),
    ...(inner.flush ? { flush: (cb?: () => void) => inner.flush?.(cb) } : {}),
    ...(inner.flushSync ? { flushSync: () => inner.flushSync?.() } : {}),
  } as DestinationStream;
}

const rejected = new WeakSet<object>();

/**
 * A webhook whose signature does not match (a forged delivery, or a WEBHOOK_SECRET that differs from the
 * App's): the webhooks middleware and Probot's error handler each log it with its stack and the event's
 * payload. Said once instead, in one line naming the delivery and the fix, without the payload.
 */
export function webhookSignatureLine(arg: unknown): { fields: Record<string, unknown>; msg: string } | null | undefined {
  if (!(arg instanceof Error)) return undefined;
  const first = arg instanceof AggregateError ? (arg.errors[0] as unknown) : arg;
  const message = first instanceof Error ? first.message.toLowerCase() : '';
  if (!message.includes('signature does not match') && !message.includes('x-hub-signature-256')) return undefined;
  const key = first as object;
  if (rejected.has(key)) return null;
  rejected.add(key);
  const event = ((arg as { event?: { id?: unknown; name?: unknown } }).event ??
    (first as { event?: { id?: unknown; name?: unknown } }).event) as { id?: unknown; name?: unknown } | undefined;
  return {
    fields: { delivery: event?.id, event: event?.name },
    msg: 'webhook rejected: its signature does not match WEBHOOK_SECRET (a forged delivery, or the App settings and the environment hold different secrets: set the same one in both)',
  };
}

/** The root logger: stderr, level from LOG_LEVEL (default warn for the CLI, info for servers). */
const root: Logger = pino(
  {
    level: process.env.LOG_LEVEL ?? 'warn',
    base: undefined,
    hooks: {
      logMethod(args, method) {
        const line = webhookSignatureLine(args[0]);
        if (line === null) return;
        if (line) return method.apply(this, [line.fields, line.msg] as unknown as Parameters<typeof method>);
        return method.apply(this, args);
      },
    },
    redact: {
      paths: ['token', '*.token', 'apiKey', '*.apiKey', 'authorization', '*.authorization', 'headers.authorization'],
      censor: REDACTED,
    },
  },
  redactingDestination(logDestination()),
);

/** One child logger per module: `logger('permissions')`. */
export function logger(module: string): Logger {
  return root.child({ module });
}

/** A logger that writes nothing (tests, library callers that bring their own). */
export const silentLogger: Logger = pino({ level: 'silent' });
