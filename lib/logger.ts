/**
 * The pino logger the sandbox and the monitor write JSON lines with (or, `format: 'human'`, one
 * short line per record for a terminal: human-log.ts). Auth headers and any field named like a
 * key are redacted by path; the literal values of the keys in use are scrubbed from every line
 * as a last net, so a key that slips into a message is still hidden.
 */
import { Writable } from 'node:stream';
import pino, { type Logger, type LevelWithSilent } from 'pino';
import { type ApiKey, redactSecrets } from '../api/client/single-attempt.js';
import { humanLine } from './human-log.js';

/** Key fields, and both auth headers at the top, one level down and in a request. */
const REDACT_PATHS = [
  ...['key', 'apiKey', '*.key', '*.apiKey'],
  ...['', '*.', 'req.'].flatMap((at) => [`${at}headers.authorization`, `${at}headers["x-api-key"]`]),
];

interface LoggerOptions {
  readonly level?: LevelWithSilent;
  /** Where lines go; stderr by default so stdout stays for a command's result. */
  readonly destination?: NodeJS.WritableStream;
  /** Keys whose literal values must never appear in a line. */
  readonly secrets?: () => Iterable<ApiKey>;
  readonly name?: string;
  /** `json` (the default): pino's lines; `human`: one readable line each. */
  readonly format?: 'json' | 'human';
}

/** Each pino line (one per write), changed by `line` on its way to `target`. */
function mappingStream(target: NodeJS.WritableStream, line: (text: string) => string): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      target.write(line(chunk.toString('utf8')));
      callback();
    },
  });
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const { secrets, format = 'json' } = options;
  const target = options.destination ?? process.stderr;
  const shown = format === 'human' ? mappingStream(target, (l) => `${humanLine(l)}\n`) : target;
  const stream = secrets ? mappingStream(shown, (l) => redactSecrets(l, secrets())) : shown;
  return pino(
    {
      level: options.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      ...(options.name ? { name: options.name } : {}),
    },
    stream,
  );
}
