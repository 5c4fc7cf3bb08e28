/**
 * The log lines of a probe. A 429 storm logs one line when a key's throttled stretch begins and
 * one when it ends, not one per probe. A sent probe's line carries its trace id and the server's
 * request id together: the one line support hands the API team.
 */
import type { Logger } from 'pino';
import type { ProbeResult } from './run.js';

export function logProbe(logger: Logger, { spec, verdict, durationMs, holdEvent, attempt }: ProbeResult): void {
  const key = { target: spec.target, keyAlias: holdEvent?.keyAlias };
  if (holdEvent?.kind === 'started') {
    const hint = holdEvent.holdMs === undefined ? 'no hint' : `${Math.ceil(holdEvent.holdMs / 1000)} s`;
    logger.warn(
      { ...key, probe: spec.id, wait: hint, detail: verdict.detail },
      'key rate limited (HTTP 429): its probes wait out the hint, one at a time, until it answers otherwise',
    );
  } else if (holdEvent?.kind === 'ended') logger.info(key, 'key answered again after HTTP 429: its probes resume');
  const ids =
    attempt === undefined ? {} : { traceId: attempt.traceId, requestId: attempt.kind === 'response' ? attempt.requestId : undefined };
  const log = { probe: spec.id, outcome: verdict.outcome, reason: verdict.reason, ms: Math.round(durationMs), ...ids };
  if (verdict.success) logger.debug(log, 'probe ok');
  else if (verdict.outcome === 'rate_limited') logger.debug(log, 'probe rate limited');
  else logger.warn({ ...log, detail: verdict.detail }, 'probe failed');
}
