/**
 * What the client writes, and where: `debug` one line per attempt, `info` one per retry. The
 * level is `logLevel`, else the `REPAIR_API_LOG` environment variable (read once, when the client
 * is created), else `warn` (nothing: the client reports failures by throwing, not by logging).
 * Any logger with `(message, fields)` methods works (`console` is the default); the key is
 * scrubbed from every message and field first.
 */
import { printable } from '../contract/index.js';
import { type ApiKey, redactSecrets } from './api-key.js';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** The environment variable that sets the level when the `logLevel` option is not given. */
export const LOG_LEVEL_ENV = 'REPAIR_API_LOG';

export type LogFields = Readonly<Record<string, unknown>>;
export type LogFn = (message: string, fields?: LogFields) => void;
/** `console`, or any object with these methods (wrap pino as `(m, f) => log.info(f, m)`). */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const isLogLevel = (value: unknown): value is LogLevel => typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);

/** The level in force; a bad value is a TypeError naming the option or the variable. */
export function resolveLogLevel(option: unknown, env: Readonly<Record<string, string | undefined>> = process.env): LogLevel {
  if (option !== undefined) {
    if (!isLogLevel(option)) throw new TypeError(`option "logLevel" must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(option)}`);
    return option;
  }
  const raw = env[LOG_LEVEL_ENV]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return 'warn';
  if (!isLogLevel(raw)) throw new TypeError(`environment variable ${LOG_LEVEL_ENV} must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(env[LOG_LEVEL_ENV])}`);
  return raw;
}

/** One line on stderr: the message, then the fields as JSON, control characters escaped. */
const consoleLine: LogFn = (message, fields) => console.error(printable(fields ? `${message} ${JSON.stringify(fields)}` : message));

/** The client's log functions for `level`: undefined below it, so no fields are built for nothing. */
export function clientLog(logger: Logger | undefined, level: LogLevel, key: ApiKey): { debug?: LogFn; info?: LogFn; warn: LogFn } {
  const at = (line: 'debug' | 'info' | 'warn'): LogFn | undefined => {
    if (LOG_LEVELS.indexOf(line) < LOG_LEVELS.indexOf(level)) return undefined;
    const sink: LogFn = logger && logger !== console ? (m, f) => logger[line](m, f) : consoleLine;
    return (message, fields) => sink(redactSecrets(message, [key]), fields && (JSON.parse(redactSecrets(JSON.stringify(fields), [key])) as LogFields));
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn') ?? (() => undefined) };
}
