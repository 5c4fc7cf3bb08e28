/**
 * Naming what went wrong below HTTP: a pure mapping from the errors undici and Node raise to
 * a closed set of failures. Codes are read from the error and its `cause` chain.
 */

export type TimeoutPhase = 'connect' | 'headers' | 'body';

export type TransportFailure =
  | { readonly kind: 'timeout'; readonly phase: TimeoutPhase; readonly message: string }
  | { readonly kind: 'connection'; readonly code: string; readonly message: string }
  | { readonly kind: 'tls'; readonly code: string; readonly message: string }
  | { readonly kind: 'body_too_large'; readonly limitBytes: number; readonly message: string }
  | { readonly kind: 'aborted'; readonly reason: unknown; readonly message: string };

/** Codes after which a new attempt may succeed: the connection failed, not the request. */
export const RETRYABLE_CONNECTION_CODES: readonly string[] = [
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
];

function codeChain(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

function isTlsCode(code: string): boolean {
  return (
    code.startsWith('ERR_TLS') ||
    code.startsWith('ERR_SSL') ||
    code.includes('CERT') ||
    code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' ||
    code === 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY'
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Maps an error thrown by `undici.request` or while reading a body. */
export function transportFailureFrom(error: unknown): TransportFailure {
  const codes = codeChain(error);
  const message = messageOf(error);
  for (const code of codes) {
    if (code === 'UND_ERR_CONNECT_TIMEOUT') return { kind: 'timeout', phase: 'connect', message };
    if (code === 'UND_ERR_HEADERS_TIMEOUT') return { kind: 'timeout', phase: 'headers', message };
    if (code === 'UND_ERR_BODY_TIMEOUT') return { kind: 'timeout', phase: 'body', message };
    if (isTlsCode(code)) return { kind: 'tls', code, message };
  }
  const code = codes.find((c) => c !== 'UND_ERR_SOCKET') ?? codes[0] ?? 'UNKNOWN';
  return { kind: 'connection', code, message };
}

export function isRetryableFailure(failure: TransportFailure): boolean {
  if (failure.kind === 'timeout') return true;
  if (failure.kind === 'connection') return RETRYABLE_CONNECTION_CODES.includes(failure.code);
  return false;
}
