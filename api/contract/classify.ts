/**
 * Classifying a response by HTTP status plus `error.code`, never by the (Polish) message text.
 * The client and every tool classify with this one function, so they cannot disagree.
 */
import {
  type EnvelopeParse,
  type EnvelopeProblem,
  SERVER_TEXT_LIMITS,
  serverText,
} from './envelope.js';
import { ERROR_CODES } from './errors.js';

/**
 * What an answer (or its absence) means, in the words every tool spells it with (a tool may add
 * words around them, never rename them). The last three: no complete response arrived.
 */
export const ANSWER_KINDS = [
  'ok',
  'unauthorized',
  'tenant_mismatch',
  'insufficient_scope',
  'forbidden',
  'not_found',
  'rate_limited',
  'server_error',
  'client_error',
  'redirect',
  'invalid_envelope',
  'timeout',
  'connection_error',
  'tls_error',
] as const;
export type AnswerKind = (typeof ANSWER_KINDS)[number];

/** The server's `error.code` and `error.message`. */
type Said = { readonly code: string; readonly message: string };

export type ResponseClass =
  | { readonly kind: 'ok'; readonly data: unknown }
  /** Undefined code and message: no envelope came (a 401's body is not shown; a proxy's page). */
  | ({ readonly kind: 'unauthorized' | 'rate_limited' | 'server_error' } & Partial<Said>)
  /**
   * `not_found`: no such path or tenant (or one the API hides from this key); `client_error`: any
   * other error envelope (400, 405, 409...).
   */
  | ({
      readonly kind:
        'tenant_mismatch' | 'insufficient_scope' | 'forbidden' | 'not_found' | 'client_error';
    } & Said)
  | { readonly kind: 'redirect'; readonly location: string | undefined }
  | {
      readonly kind: 'invalid_envelope';
      readonly problem: EnvelopeProblem;
      readonly detail: string;
    };

/**
 * A 429 or 5xx that is not an envelope (a proxy's page) still classifies by status: it is what
 * tells a client to back off. The code decides before the status (`unauthorized` on any status is a
 * rejected key); then any 401 is one (READING: a 401's code and body are not shown).
 */
export function classifyResponse(
  status: number,
  parsed: EnvelopeParse,
  location?: string,
): ResponseClass {
  if (status >= 300 && status < 400)
    return {
      kind: 'redirect',
      location:
        location === undefined ? undefined : serverText(location, SERVER_TEXT_LIMITS.detail),
    };
  const body = parsed.valid ? parsed.envelope : undefined;
  const errorBody = body && !body.ok ? body.error : undefined;
  if (status === 429) return { kind: 'rate_limited', ...errorBody };
  if (status >= 500) return { kind: 'server_error', ...errorBody };
  if (status === 401 && !errorBody) return { kind: 'unauthorized' };
  if (!parsed.valid)
    return { kind: 'invalid_envelope', problem: parsed.problem, detail: parsed.detail };
  if (parsed.envelope.ok) return { kind: 'ok', data: parsed.envelope.data };
  const { code, message } = parsed.envelope.error;
  if (code === ERROR_CODES.unauthorized) return { kind: 'unauthorized', code, message };
  if (code === ERROR_CODES.tenantMismatch) return { kind: 'tenant_mismatch', code, message };
  if (code === ERROR_CODES.insufficientScope) return { kind: 'insufficient_scope', code, message };
  if (code === ERROR_CODES.rateLimited) return { kind: 'rate_limited', code, message };
  if (status === 401) return { kind: 'unauthorized', code, message };
  if (status === 403) return { kind: 'forbidden', code, message };
  if (status === 404) return { kind: 'not_found', code, message };
  return { kind: 'client_error', code, message };
}

/** Statuses whose retry may succeed (spec §7 names 429; 408 and the 5xx gateway family). */
export const RETRYABLE_STATUSES: readonly number[] = [408, 429, 500, 502, 503, 504];
