/**
 * Running one probe: exactly one `sendAttempt`, no retries, then the pure classifier. A key
 * held after a 429 is not sent at all.
 *
 * `/` and `/docs` say nothing about one key, so a 429 on one tenant must not blind them: while
 * their planned key waits out a hint they go with the target's first key that does not, or
 * without a key where the API serves them so (`/docs` always, spec §5.7; `/` with `indexAccess:
 * public`); only when neither is possible are they held.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import { ApiKey, RATE_LIMIT_POLICY } from '../../api/client/index.js';
import { type AttemptResult, sendAttempt, parseRetryHint } from '../../api/client/single-attempt.js';
import type { MonitorTarget } from '../config/types.js';
import type { ProbeTracer } from '../tracing.js';
import { type ProbeVerdict, classifyOutcome, heldVerdict } from './outcome.js';
import { type CappedHold, type Politeness, capNote, cappedHold } from './politeness.js';
import { type Credential, INVALID_KEY_ALIAS, INVALID_KEY_PREFIX, NO_KEY_ALIAS, type ProbeSpec } from './spec.js';

type Degradation = 'none' | 'slo' | 'rate_limited';

export interface ProbeResult {
  readonly spec: ProbeSpec;
  readonly verdict: ProbeVerdict;
  /** Wall-clock ms. */
  readonly startedAt: number;
  readonly durationMs: number;
  /** False when the key was held for a 429 hint and nothing was sent. */
  readonly sent: boolean;
  readonly degraded: Degradation;
  /** What the key waits out after this 429: the server's hint, at most `maxRateLimitHold` (while held, what is left). */
  readonly retryAfterMs: number | undefined;
  readonly holdCapped?: CappedHold | undefined;
  /** This answer began a key's throttled stretch (its first 429) or ended it (another answer after 429s). */
  readonly holdEvent?: { readonly kind: 'started' | 'ended'; readonly keyAlias: string; readonly holdMs?: number | undefined } | undefined;
  readonly attempt: AttemptResult | undefined;
}

export interface ProbeDeps {
  readonly dispatcher: Dispatcher;
  readonly politeness: Politeness;
  /** Wall clock in ms, for timestamps and 429 holds. */
  readonly now: () => number;
  /** `maxRateLimitHold`; by default the 429 policy's longest hold (1 h). */
  readonly maxHoldMs?: number | undefined;
  readonly userAgent?: string | undefined;
  readonly tracer?: ProbeTracer | undefined;
}

function credentialKey(credential: Credential): ApiKey | undefined {
  if (credential.kind === 'key') return credential.key.key;
  if (credential.kind === 'invalid') return new ApiKey(`${INVALID_KEY_PREFIX}${randomBytes(12).toString('hex')}`, INVALID_KEY_ALIAS);
  return undefined;
}

/** Who sends a probe: the alias its 429s hold, and the credential. */
type Sender = { readonly alias: string; readonly credential: Credential };

/** The planned key, or for `/` and `/docs` while it is held, another way in (see the top of the file). */
function senderOf(spec: ProbeSpec, target: MonitorTarget, politeness: Politeness, nowMs: number): Sender {
  const planned = { alias: spec.keyAlias, credential: spec.credential };
  const shared = spec.check === 'read' && (spec.endpoint === 'docs' || spec.endpoint === 'index');
  if (!shared || politeness.remainingMs(spec.target, spec.keyAlias, nowMs) === 0) return planned;
  const free = target.keys.find((k) => politeness.remainingMs(spec.target, k.alias, nowMs) === 0);
  if (free) return { alias: free.alias, credential: { kind: 'key', key: free, scheme: free.auth } };
  const open = spec.endpoint === 'docs' || target.indexAccess === 'public';
  return open && politeness.remainingMs(spec.target, NO_KEY_ALIAS, nowMs) === 0
    ? { alias: NO_KEY_ALIAS, credential: { kind: 'none' } }
    : planned;
}

/** `signal` aborts the request (the scheduler's shutdown). */
export async function runProbe(spec: ProbeSpec, target: MonitorTarget, deps: ProbeDeps, signal?: AbortSignal): Promise<ProbeResult> {
  const startedAt = deps.now();
  const sender = senderOf(spec, target, deps.politeness, startedAt);
  const held = deps.politeness.state(spec.target, sender.alias, startedAt);
  if (held) {
    const verdict = heldVerdict(spec.expect, held.remainingMs, held.capped && capNote(held.capped));
    // Every field in the order sendWith writes them: one object shape for every result.
    return {
      spec,
      verdict,
      startedAt,
      durationMs: 0,
      sent: false,
      degraded: 'rate_limited',
      retryAfterMs: held.remainingMs,
      holdCapped: held.capped,
      holdEvent: undefined,
      attempt: undefined,
    };
  }
  const sent = await sendWith(spec, sender, target, deps, signal, startedAt);
  if (sender.alias === spec.keyAlias) return sent;
  // The gauge labelled with the planned key keeps saying what that key waits out.
  const plannedHold = deps.politeness.state(spec.target, spec.keyAlias, deps.now())?.remainingMs;
  const via = sender.credential.kind === 'key' ? `with key ${sender.alias}` : 'without a key';
  const verdict = { ...sent.verdict, detail: `${sent.verdict.detail} (sent ${via}: key ${spec.keyAlias} waits out a 429)` };
  return { ...sent, verdict, retryAfterMs: plannedHold };
}

async function sendWith(
  spec: ProbeSpec,
  sender: Sender,
  target: MonitorTarget,
  deps: ProbeDeps,
  signal: AbortSignal | undefined,
  startedAt: number,
): Promise<ProbeResult> {
  const span = deps.tracer?.start(spec, sender.alias);
  const attempt = await sendAttempt({
    dispatcher: deps.dispatcher,
    baseUrl: target.baseUrl,
    path: spec.path,
    endpoint: spec.endpoint,
    key: credentialKey(sender.credential),
    authScheme: sender.credential.kind === 'key' ? sender.credential.scheme : 'bearer',
    timeoutMs: target.timeoutMs,
    maxBodyBytes: target.maxBodyBytes,
    signal,
    userAgent: deps.userAgent,
    traceparent: span?.traceparent,
  });
  let verdict = classifyOutcome(attempt, spec.expect);
  const durationMs = attempt.timings.totalMs;
  let retryAfterMs: number | undefined;
  let holdCapped: CappedHold | undefined;
  let holdEvent: ProbeResult['holdEvent'];
  const at = deps.now();
  if (attempt.kind === 'response' && attempt.status === 429) {
    // parseRetryHint reads a date or an epoch against the answer's own Date (a server clock ahead adds nothing).
    const askedMs = parseRetryHint(attempt.headers, at)?.delayMs;
    const hold = askedMs === undefined ? undefined : cappedHold(askedMs, deps.maxHoldMs ?? RATE_LIMIT_POLICY.maxHoldMs);
    retryAfterMs = hold?.holdMs;
    holdCapped = hold?.capped;
    // Without a hint nothing is held, but the key's throttled stretch begins all the same.
    if (deps.politeness.hold(spec.target, sender.alias, at, retryAfterMs ?? 0, holdCapped))
      holdEvent = { kind: 'started', keyAlias: sender.alias, holdMs: retryAfterMs };
    // The cap is the news: a reason of its own, and both figures in the detail.
    if (holdCapped) verdict = { ...verdict, reason: 'retry_after_capped', detail: `${verdict.detail}: ${capNote(holdCapped)}` };
  } else if (deps.politeness.settle(spec.target, sender.alias, at, target.intervalMs))
    holdEvent = { kind: 'ended', keyAlias: sender.alias };
  const sloMs = target.sloMs[spec.endpoint];
  const degraded = verdict.outcome === 'rate_limited' ? 'rate_limited' : sloMs !== undefined && durationMs > sloMs ? 'slo' : 'none';
  span?.end(verdict, attempt.kind === 'response' ? attempt.requestId : undefined);
  return { spec, verdict, startedAt, durationMs, sent: true, degraded, retryAfterMs, holdCapped, holdEvent, attempt };
}

/**
 * A 429 storm logs one line when a key's throttled stretch begins and one when it ends, not one
 * per probe. A sent probe's line carries its trace id and the server's request id together: the
 * one line support hands the API team.
 */
export function logProbe(logger: Logger, { spec, verdict, durationMs, holdEvent, attempt }: ProbeResult): void {
  const key = { target: spec.target, keyAlias: holdEvent?.keyAlias };
  if (holdEvent?.kind === 'started') {
    const hint = holdEvent.holdMs === undefined ? 'no hint' : `${Math.ceil(holdEvent.holdMs / 1000)} s`;
    logger.warn(
      { ...key, probe: spec.id, wait: hint, detail: verdict.detail },
      'key rate limited (HTTP 429): its probes wait out the hint, one at a time, until it answers otherwise',
    );
  } else if (holdEvent?.kind === 'ended') logger.info(key, 'key answered again after HTTP 429: its probes resume');
  // Most probes log at debug, which is usually off: build nothing for them then.
  if ((verdict.success || verdict.outcome === 'rate_limited') && !logger.isLevelEnabled('debug')) return;
  const ids =
    attempt === undefined ? {} : { traceId: attempt.traceId, requestId: attempt.kind === 'response' ? attempt.requestId : undefined };
  const log = { probe: spec.id, outcome: verdict.outcome, reason: verdict.reason, ms: Math.round(durationMs), ...ids };
  if (verdict.success) logger.debug(log, 'probe ok');
  else if (verdict.outcome === 'rate_limited') logger.debug(log, 'probe rate limited');
  else logger.warn({ ...log, detail: verdict.detail }, 'probe failed');
}
