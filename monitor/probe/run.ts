/**
 * Running one probe: exactly one `sendAttempt`, no retries, then the pure classifier. A key
 * held after a 429 is not sent at all. The result carries everything metrics, history and the
 * debug view need; the raw attempt is kept only for the debug view.
 */
import { randomBytes } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { ApiKey } from '../../api/client/index.js';
import { type AttemptResult, sendAttempt, parseRetryHint } from '../../api/client/single-attempt.js';
import type { MonitorTarget } from '../config/types.js';
import { type ProbeVerdict, classifyOutcome, heldVerdict } from './outcome.js';
import { type CappedHold, type Politeness, capNote, cappedHold } from './politeness.js';
import { type Credential, INVALID_KEY_ALIAS, INVALID_KEY_PREFIX, type ProbeSpec } from './spec.js';

export type Degradation = 'none' | 'slo' | 'rate_limited';

export interface ProbeResult {
  readonly spec: ProbeSpec;
  readonly verdict: ProbeVerdict;
  /** Wall-clock ms when the probe started. */
  readonly startedAt: number;
  readonly durationMs: number;
  /** False when the key was held for a 429 hint and nothing was sent. */
  readonly sent: boolean;
  readonly degraded: Degradation;
  /**
   * What the key waits out after this 429: the server's hint, at most `maxRateLimitHold`
   * (while held, what is left of the hold).
   */
  readonly retryAfterMs: number | undefined;
  /** The server asked for more than `maxRateLimitHold`: what it asked, and the cap. */
  readonly holdCapped?: CappedHold | undefined;
  readonly attempt: AttemptResult | undefined;
}

export interface ProbeDeps {
  readonly dispatcher: Dispatcher;
  readonly politeness: Politeness;
  /** Wall clock in ms, for timestamps and 429 holds. */
  readonly now: () => number;
  readonly signal?: AbortSignal | undefined;
  /** The longest a 429 hint holds the key (`maxRateLimitHold`); by default DEFAULT_MAX_HOLD_MS. */
  readonly maxHoldMs?: number | undefined;
}

/** `maxRateLimitHold` when a config names none: 1 h. */
export const DEFAULT_MAX_HOLD_MS = 3_600_000;

function credentialKey(credential: Credential): ApiKey | undefined {
  if (credential.kind === 'key') return credential.key.key;
  if (credential.kind === 'invalid') return new ApiKey(`${INVALID_KEY_PREFIX}${randomBytes(12).toString('hex')}`, INVALID_KEY_ALIAS);
  return undefined;
}

function degradation(verdict: ProbeVerdict, durationMs: number, sloMs: number | undefined): Degradation {
  if (verdict.outcome === 'rate_limited') return 'rate_limited';
  return sloMs !== undefined && durationMs > sloMs ? 'slo' : 'none';
}

export async function runProbe(spec: ProbeSpec, target: MonitorTarget, deps: ProbeDeps): Promise<ProbeResult> {
  const startedAt = deps.now();
  const held = deps.politeness.state(spec.target, spec.keyAlias, startedAt);
  if (held) {
    const verdict = heldVerdict(spec.expect, held.remainingMs, held.capped && capNote(held.capped));
    return { spec, verdict, startedAt, durationMs: 0, sent: false, degraded: 'rate_limited', retryAfterMs: held.remainingMs, holdCapped: held.capped, attempt: undefined };
  }
  const attempt = await sendAttempt({
    dispatcher: deps.dispatcher,
    baseUrl: target.baseUrl,
    path: spec.path,
    endpoint: spec.endpoint,
    key: credentialKey(spec.credential),
    authScheme: spec.credential.kind === 'key' ? spec.credential.scheme : 'bearer',
    timeoutMs: target.timeoutMs,
    maxBodyBytes: target.maxBodyBytes,
    signal: deps.signal,
  });
  let verdict = classifyOutcome(attempt, spec.expect);
  const durationMs = attempt.timings.totalMs;
  let retryAfterMs: number | undefined;
  let holdCapped: CappedHold | undefined;
  if (attempt.kind === 'response' && attempt.status === 429) {
    const askedMs = parseRetryHint(attempt.headers, deps.now())?.delayMs;
    if (askedMs !== undefined) {
      const hold = cappedHold(askedMs, deps.maxHoldMs ?? DEFAULT_MAX_HOLD_MS);
      retryAfterMs = hold.holdMs;
      holdCapped = hold.capped;
      deps.politeness.hold(spec.target, spec.keyAlias, deps.now() + hold.holdMs, hold.capped);
      // The cap is the news: a reason of its own, and both figures in the detail.
      if (hold.capped) verdict = { ...verdict, reason: 'retry_after_capped', detail: `${verdict.detail}: ${capNote(hold.capped)}` };
    }
  }
  const degraded = degradation(verdict, durationMs, target.sloMs[spec.endpoint]);
  return { spec, verdict, startedAt, durationMs, sent: true, degraded, retryAfterMs, holdCapped, attempt };
}
