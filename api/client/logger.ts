/**
 * What the client logs: `debug` one line per attempt, `info` (the default) one per retry's wait,
 * so a slow retry does not look like a hang; failures are thrown, not logged. The key is scrubbed
 * from every message and field first.
 */
import { printable } from '../contract/index.js';
import { type ApiKey, redactSecrets } from './api-key.js';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_LEVEL_ENV = 'REPAIR_API_LOG';

export type LogFields = Readonly<Record<string, unknown>>;
export type LogFn = (message: string, fields?: LogFields) => void;
/** `console`, or any object with these methods (pino: `(m, f) => log.info(f, m)`). */
export type Logger = Record<'debug' | 'info' | 'warn' | 'error', LogFn>;

/** `logLevel`, else the environment variable, else `info`; a bad value names its source. */
export function resolveLogLevel(
  option: unknown,
  env: Readonly<Record<string, string | undefined>> = process.env,
): LogLevel {
  const raw = option !== undefined ? option : env[LOG_LEVEL_ENV]?.trim().toLowerCase() || undefined;
  if (raw === undefined) return 'info';
  if (LOG_LEVELS.includes(raw as LogLevel)) return raw as LogLevel;
  const [what, got] =
    option !== undefined
      ? ['option "logLevel"', option]
      : [`environment variable ${LOG_LEVEL_ENV}`, raw];
  throw new TypeError(
    `${what} must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(got)}`,
  );
}

/** The log functions for `level`: undefined below it, so no fields are built for nothing. */
export function clientLog(
  logger: Logger | undefined,
  level: LogLevel,
  key: ApiKey,
): { debug?: LogFn; info?: LogFn; warn: LogFn } {
  const at = (line: 'debug' | 'info' | 'warn'): LogFn | undefined => {
    if (LOG_LEVELS.indexOf(line) < LOG_LEVELS.indexOf(level)) return undefined;
    // The console gets one line on stderr, control characters escaped.
    const toConsole: LogFn = (m, f) =>
      console.error(printable(f && line === 'debug' ? `${m} ${JSON.stringify(f)}` : m));
    const sink: LogFn = logger && logger !== console ? (m, f) => logger[line](m, f) : toConsole;
    const scrub = (fields: LogFields): LogFields =>
      JSON.parse(redactSecrets(JSON.stringify(fields), [key])) as LogFields;
    return (message, fields) => sink(redactSecrets(message, [key]), fields && scrub(fields));
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn') ?? (() => undefined) };
}
