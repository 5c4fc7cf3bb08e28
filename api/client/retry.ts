/**
 * Whether to try again, and after how long: pure functions of an attempt's outcome, the clock, a
 * random number and the deadline. Garbage in a hint header gives no hint, never a guess.
 */
import { RATE_LIMIT_HEADERS as H, RETRYABLE_STATUSES } from '../contract/index.js';
import type { TransportFailure } from './attempt.js';

/** The one 429 policy, and its three uses: api/README.md. */
export const RATE_LIMIT_POLICY = {
  backoffMs: { baseMs: 1000, capMs: 16_000 },
  maxHoldMs: 3_600_000,
  probeMaxWaitMs: 10_000,
} as const;

export interface RetryHint {
  readonly source:
    'retry-after-ms' | 'retry-after' | 'ratelimit-reset' | 'ratelimit' | 'x-ratelimit-reset';
  /** How long the server asked to wait, from now; finite and >= 0. */
  readonly delayMs: number;
}

export interface RateLimitInfo {
  readonly limit?: number | undefined;
  readonly remaining?: number | undefined;
  /** Milliseconds until the window resets, from now. */
  readonly resetMs?: number | undefined;
}

type Headers = Readonly<Record<string, string | undefined>>;

const clampMs = (ms: number): number =>
  Number.isFinite(ms)
    ? Math.min(Number.MAX_SAFE_INTEGER, Math.max(0, Math.ceil(ms)))
    : Number.MAX_SAFE_INTEGER;
const decimal = (value: string | undefined): number | undefined =>
  value !== undefined && /^\s*\d+(?:\.\d+)?\s*$/.test(value) ? Number(value) : undefined;
const integer = (value: string | undefined): number | undefined =>
  Number.isSafeInteger(decimal(value)) ? decimal(value) : undefined;
/** RFC 9110 §5.6.7: IMF-fixdate, the obsolete RFC 850 form, and asctime (no zone named: GMT). */
const TIME = String.raw`\d{2}:\d{2}:\d{2}`;
const HTTP_DATE = new RegExp(
  String.raw`^(?:[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} ${TIME} GMT` +
    String.raw`|[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} ${TIME} GMT` +
    String.raw`|[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d ${TIME} \d{4})$`,
);

/** Delay-seconds (decimals tolerated) or an HTTP date. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  const seconds = decimal(value);
  if (seconds !== undefined) return clampMs(seconds * 1000);
  const text = value?.trim() ?? '';
  if (!HTTP_DATE.test(text)) return undefined;
  const date = Date.parse(text.endsWith('GMT') ? text : `${text} GMT`);
  return Number.isNaN(date) ? undefined : clampMs(date - nowMs);
}

/** Seconds to wait, or an epoch in seconds (above 1e9) or ms (above 1e11), as gateways send. */
function parseReset(value: string | undefined, nowMs: number): number | undefined {
  const n = decimal(value);
  if (n === undefined) return undefined;
  if (n >= 1e11) return clampMs(n - nowMs);
  return clampMs(n >= 1e9 ? n * 1000 - nowMs : n * 1000);
}

/**
 * The IETF draft's `RateLimit` field in both shapes: `limit=100, remaining=50, reset=30` and
 * `"p";r=50;t=30` (+ `RateLimit-Policy: "p";q=100`).
 */
function rateLimitField(headers: Headers): {
  limit?: number;
  remaining?: number;
  resetSeconds?: number;
} {
  const param = (text: string | undefined, ...names: string[]): number | undefined => {
    for (const name of names) {
      const match =
        text === undefined
          ? null
          : new RegExp(`(?:^|[;,\\s])${name}=(\\d+)(?=$|[;,\\s])`).exec(text);
      if (match) return Number(match[1]);
    }
    return undefined;
  };
  const field = headers[H.field];
  return {
    limit: param(field, 'limit') ?? param(headers[H.policy], 'q'),
    remaining: param(field, 'remaining', 'r'),
    resetSeconds: param(field, 'reset', 't'),
  };
}

/**
 * Dates and epochs are on the server's clock: read against its `Date`, so a clock running ahead
 * does not stretch the wait.
 */
function serverNow(headers: Headers, localMs: number): number {
  const date = Date.parse(headers['date'] ?? '');
  return Number.isNaN(date) ? localMs : date;
}

export function parseRetryHint(headers: Headers, localMs: number): RetryHint | undefined {
  const nowMs = serverNow(headers, localMs);
  const field = rateLimitField(headers).resetSeconds;
  const candidates: Array<[RetryHint['source'], number | undefined]> = [
    ['retry-after-ms', decimal(headers[H.retryAfterMs])],
    ['retry-after', parseRetryAfter(headers[H.retryAfter], nowMs)],
    ['ratelimit-reset', parseReset(headers[H.reset], nowMs)],
    ['ratelimit', field === undefined ? undefined : field * 1000],
    ['x-ratelimit-reset', parseReset(headers[H.xReset], nowMs)],
  ];
  const found = candidates.find(([, ms]) => ms !== undefined);
  return found ? { source: found[0], delayMs: clampMs(found[1]!) } : undefined;
}

export function parseRateLimitInfo(headers: Headers, localMs: number): RateLimitInfo {
  const nowMs = serverNow(headers, localMs);
  const field = rateLimitField(headers);
  const fieldReset =
    field.resetSeconds === undefined ? undefined : clampMs(field.resetSeconds * 1000);
  return {
    limit: integer(headers[H.limit]) ?? field.limit ?? integer(headers[H.xLimit]),
    remaining: integer(headers[H.remaining]) ?? field.remaining ?? integer(headers[H.xRemaining]),
    resetMs:
      parseReset(headers[H.reset], nowMs) ?? fieldReset ?? parseReset(headers[H.xReset], nowMs),
  };
}

/** The connection failed, not the request: a new attempt may succeed. */
// prettier-ignore
const RETRYABLE_CODES = new Set([
  'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'UND_ERR_SOCKET',
  'UND_ERR_CLOSED', 'ECONNABORTED', 'EHOSTUNREACH', 'ENETUNREACH',
]);

export type RetryOutcome =
  | {
      readonly kind: 'status';
      readonly status: number;
      readonly headers: Readonly<Record<string, string | undefined>>;
    }
  | { readonly kind: 'failure'; readonly failure: TransportFailure };

export type StopReason =
  'not_retryable' | 'retries_exhausted' | 'hint_above_max' | 'hint_past_deadline' | 'deadline';

export type RetryDecision =
  | {
      readonly retry: true;
      readonly delayMs: number;
      readonly basis: 'hint' | 'backoff';
      readonly hint?: RetryHint | undefined;
    }
  | { readonly retry: false; readonly reason: StopReason; readonly hint?: RetryHint | undefined };

export interface RetryInput {
  /** Attempts so far, the failed one included. */
  readonly attempt: number;
  readonly maxRetries: number;
  readonly outcome: RetryOutcome;
  readonly now: number;
  /** In [0, 1); anything else is clamped. */
  readonly random: number;
  readonly deadline: number;
  readonly maxRetryAfterMs: number;
  /** An attempt with less time than this left is not worth starting. */
  readonly minAttemptWindowMs: number;
}

const unit = (random: number): number =>
  Number.isFinite(random) && random >= 0 ? Math.min(random, 0.999_999) : 0;

function retryable(outcome: RetryOutcome): boolean {
  if (outcome.kind === 'status') return RETRYABLE_STATUSES.includes(outcome.status);
  const { failure } = outcome;
  return (
    failure.kind === 'timeout' ||
    (failure.kind === 'connection' && RETRYABLE_CODES.has(failure.code))
  );
}

/** The longest backoff after `attempt` attempts; a 429 without a hint backs off harder. */
export function backoffCeilingMs(attempt: number, limited: boolean): number {
  const { baseMs, capMs } = limited ? RATE_LIMIT_POLICY.backoffMs : { baseMs: 250, capMs: 4000 };
  return Math.min(capMs, baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30));
}

export function decideRetry(input: RetryInput): RetryDecision {
  const { outcome, now } = input;
  if (!retryable(outcome)) return { retry: false, reason: 'not_retryable' };
  const hint = outcome.kind === 'status' ? parseRetryHint(outcome.headers, now) : undefined;
  if (input.attempt > input.maxRetries) return { retry: false, reason: 'retries_exhausted', hint };
  const latestStart = input.deadline - Math.max(0, input.minAttemptWindowMs);
  if (hint) {
    if (hint.delayMs > input.maxRetryAfterMs)
      return { retry: false, reason: 'hint_above_max', hint };
    if (now + hint.delayMs > latestStart)
      return { retry: false, reason: 'hint_past_deadline', hint };
    // Never earlier than asked; a little later (10 %, 50 ms to 1 s) so clients do not all come
    // back together.
    const jitter = Math.floor(
      Math.min(1000, Math.max(50, hint.delayMs * 0.1)) * unit(input.random),
    );
    return {
      retry: true,
      delayMs: Math.min(hint.delayMs + jitter, latestStart - now),
      basis: 'hint',
      hint,
    };
  }
  // Exponential with "equal jitter".
  const limited = outcome.kind === 'status' && outcome.status === 429;
  const ceiling = backoffCeilingMs(input.attempt, limited);
  const delayMs = Math.round(ceiling / 2 + (ceiling / 2) * unit(input.random));
  // A backoff squeezed to fit would hammer the server in the last milliseconds: stop instead.
  if (now + delayMs > latestStart) return { retry: false, reason: 'deadline' };
  return { retry: true, delayMs, basis: 'backoff' };
}

/** A 429's hint pauses every call; a shorter hint never shortens a pause, `clear` ends it. */
export function createRateLimitGate() {
  let until = 0;
  return {
    pause: (now: number, hint: RetryHint): void =>
      void (until = Math.max(until, now + Math.min(hint.delayMs, RATE_LIMIT_POLICY.maxHoldMs))),
    current: (now: number): { readonly until: number } | undefined =>
      until > now ? { until } : undefined,
    clear: (): void => void (until = 0),
  };
}

export type RateLimitGate = ReturnType<typeof createRateLimitGate>;
