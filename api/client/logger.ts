/**
 * The logger the client writes to. You may pass `console`, a pino or bunyan logger, or any
 * object with `warn` and `error` (and optionally `info`, `debug`) whose functions take
 * `(message, fields)` or `(fields, message)`. The client hands each line to it in the order it
 * expects, so structured fields arrive as fields, and scrubs the key from every line first.
 */
import { printable } from '../contract/index.js';
import { type ApiKey, redactSecrets } from './api-key.js';
import { type LogLevel, enabled } from './log-level.js';

export type LogFields = Readonly<Record<string, unknown>>;
export type LogFn = (message: string, fields?: LogFields) => void;

/** The shape the client calls, and what handlers receive. */
export interface ClientLogger {
  readonly debug?: LogFn | undefined;
  readonly info?: LogFn | undefined;
  readonly warn: LogFn;
  readonly error: LogFn;
}

/** Anything with these methods: `console`, pino, bunyan, winston, or your own object. */
export interface LoggerLike {
  warn(...args: unknown[]): unknown;
  error(...args: unknown[]): unknown;
  info?(...args: unknown[]): unknown;
  debug?(...args: unknown[]): unknown;
}

/**
 * `fields-first`: `log(fields, message)` as pino and bunyan take it; `message-first`:
 * `log(message, fields)` as console and winston take it.
 */
export type LogArgOrder = 'fields-first' | 'message-first';

const CONSOLE_BRAND = Symbol.for('repair-service.client.consoleLogger');
const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/**
 * For a human reading a terminal: the message, then only the fields it does not already show
 * (a status, code or path that is in the message is not repeated), as JSON.
 */
function consoleLine(message: string, fields: LogFields | undefined): string {
  if (!fields) return message;
  const rest: Record<string, unknown> = {};
  let any = false;
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const text = typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
    if (text !== undefined && text.length >= 3 && message.includes(text)) continue;
    rest[name] = value;
    any = true;
  }
  return any ? `${message} ${JSON.stringify(rest)}` : message;
}

/**
 * The default: one line per entry on stderr. Its level defaults to `warn`. Lines quote what a
 * server sent (codes, request ids), so control characters are escaped before the terminal sees them.
 */
export function consoleLogger(): ClientLogger {
  const write = (line: string): void => console.error(printable(line));
  const at = (): LogFn => (message, fields) => write(consoleLine(message, fields));
  const logger = { debug: at(), info: at(), warn: at(), error: at() };
  Object.defineProperty(logger, CONSOLE_BRAND, { value: true });
  return logger;
}

/** A logger that drops everything (tests, or a caller that handles every error itself). */
export function silentLogger(): ClientLogger {
  const none: LogFn = () => undefined;
  return { warn: none, error: none };
}

/** The console itself or `consoleLogger()`: both default to `warn` and print one line each. */
export function isConsole(logger: unknown): boolean {
  return logger === globalThis.console || (typeof logger === 'object' && logger !== null && CONSOLE_BRAND in logger);
}

/** pino (`bindings()`, `levels.values`) and bunyan (`level()`, `fields`) take fields first. */
export function detectArgOrder(logger: LoggerLike): LogArgOrder {
  const l = logger as unknown as Record<string, unknown>;
  if (typeof l['child'] !== 'function') return 'message-first';
  const pino = typeof l['bindings'] === 'function' || typeof (l['levels'] as { values?: unknown } | undefined)?.values === 'object';
  const bunyan = typeof l['level'] === 'function' && typeof l['fields'] === 'object';
  return pino || bunyan ? 'fields-first' : 'message-first';
}

function scrubFields(fields: LogFields | undefined, keys: readonly ApiKey[]): LogFields | undefined {
  if (fields === undefined) return undefined;
  const json = JSON.stringify(fields);
  const clean = redactSecrets(json, keys);
  return clean === json ? fields : (JSON.parse(clean) as LogFields);
}

type Sink = (...args: unknown[]) => unknown;

/** Accepts either argument order from its caller, detected per call by type. */
function adapt(sink: Sink, target: LoggerLike, order: LogArgOrder, keys: readonly ApiKey[]): LogFn {
  return (first: unknown, second?: unknown) => {
    const flipped = typeof first !== 'string';
    const message = redactSecrets(String((flipped ? second : first) ?? ''), keys);
    const fields = scrubFields((flipped ? first : second) as LogFields | undefined, keys);
    if (order === 'fields-first') sink.call(target, fields ?? {}, message);
    else if (fields === undefined) sink.call(target, message);
    else sink.call(target, message, fields);
  };
}

export interface LoggerSettings {
  readonly level: LogLevel;
  readonly order: LogArgOrder;
  /** Key values scrubbed from every message and field. */
  readonly keys: readonly ApiKey[];
}

const noop: LogFn = () => undefined;

/**
 * The client's logger over `target`: levels below `level` are dropped (`debug` and `info`
 * become undefined, so the client does not even build their fields), the rest are adapted
 * and scrubbed of the key.
 */
export function createLogger(target: LoggerLike, settings: LoggerSettings): ClientLogger {
  const made: Partial<Record<(typeof LEVELS)[number], LogFn>> = {};
  for (const level of LEVELS) {
    const sink = target[level] as Sink | undefined;
    if (typeof sink === 'function' && enabled(level, settings.level)) made[level] = adapt(sink, target, settings.order, settings.keys);
  }
  return { debug: made.debug, info: made.info, warn: made.warn ?? noop, error: made.error ?? noop };
}

/** Wraps a logger so the literal key value can never reach it (every level kept). */
export function redactingLogger(logger: LoggerLike, keys: readonly ApiKey[]): ClientLogger {
  return createLogger(logger, { level: 'debug', order: detectArgOrder(logger), keys });
}
