/**
 * How much the client logs: `logLevel`, else `REPAIR_API_LOG` (read once, when the client is
 * created), else `warn` for the console and `info` for a logger you pass (your logger's own
 * level still applies on top). `debug` adds one line per attempt; `info` one per retry.
 */

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The environment variable that sets the level when the `logLevel` option is not given. */
export const LOG_LEVEL_ENV = 'REPAIR_API_LOG';

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);
}

/** The level to use; throws a TypeError naming the option or the variable for a bad value. */
export function resolveLogLevel(option: unknown, env: Readonly<Record<string, string | undefined>>, fallback: LogLevel): LogLevel {
  if (option !== undefined) {
    if (!isLogLevel(option)) throw new TypeError(`option "logLevel" must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(option)}`);
    return option;
  }
  const raw = env[LOG_LEVEL_ENV];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = raw.trim().toLowerCase();
  if (!isLogLevel(value)) throw new TypeError(`environment variable ${LOG_LEVEL_ENV} must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(raw)}`);
  return value;
}

/** Whether a line at `line` is written under `threshold`. */
export function enabled(line: Exclude<LogLevel, 'silent'>, threshold: LogLevel): boolean {
  return LOG_LEVELS.indexOf(line) >= LOG_LEVELS.indexOf(threshold);
}
