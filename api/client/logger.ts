/**
 * The logger the client writes to: small enough that `console` and a pino child adapter both
 * fit. Every line passes through the key's last-net redaction first.
 */
import { type ApiKey, redactSecrets } from './api-key.js';

export type LogFields = Readonly<Record<string, unknown>>;
export type LogFn = (message: string, fields?: LogFields) => void;

export interface ClientLogger {
  readonly debug?: LogFn | undefined;
  readonly info?: LogFn | undefined;
  readonly warn: LogFn;
  readonly error: LogFn;
}

function consoleFn(write: (line: string) => void): LogFn {
  return (message, fields) => write(fields && Object.keys(fields).length > 0 ? `${message} ${JSON.stringify(fields)}` : message);
}

/** The default: warnings and errors to stderr, one line each; no debug or info noise. */
export function consoleLogger(): ClientLogger {
  return { warn: consoleFn((l) => console.warn(l)), error: consoleFn((l) => console.error(l)) };
}

/** A logger that drops everything (tests, or a caller that handles every error itself). */
export function silentLogger(): ClientLogger {
  const none: LogFn = () => undefined;
  return { warn: none, error: none };
}

function scrubFields(fields: LogFields | undefined, keys: readonly ApiKey[]): LogFields | undefined {
  if (fields === undefined) return undefined;
  const json = JSON.stringify(fields);
  const clean = redactSecrets(json, keys);
  return clean === json ? fields : (JSON.parse(clean) as LogFields);
}

function wrap(fn: LogFn | undefined, keys: readonly ApiKey[]): LogFn | undefined {
  if (!fn) return undefined;
  return (message, fields) => fn(redactSecrets(message, keys), scrubFields(fields, keys));
}

/** Wraps a logger so the literal key value can never reach it. */
export function redactingLogger(logger: ClientLogger, keys: readonly ApiKey[]): ClientLogger {
  return {
    debug: wrap(logger.debug?.bind(logger), keys),
    info: wrap(logger.info?.bind(logger), keys),
    warn: wrap(logger.warn.bind(logger), keys) as LogFn,
    error: wrap(logger.error.bind(logger), keys) as LogFn,
  };
}
