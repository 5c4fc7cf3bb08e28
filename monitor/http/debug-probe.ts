/**
 * `/probe?target=&key=&endpoint=[&tenant=][&check=]&debug=true`: runs one configured probe now,
 * picked by alias (it is not a proxy), and shows the timeline, status, redacted headers, the
 * envelope's shape, the outcome and the metrics it would emit (on a throwaway registry). No
 * customer data: only `/` and `/docs` bodies are shown (history.ts `bodyShown`); of any other
 * answer only its shape (`data` an array of N) or its error code and message.
 */
import { type ApiKey, redactSecrets } from '../../api/client/single-attempt.js';
import { type AttemptResponse, scrubKeyEchoes } from '../../api/client/single-attempt.js';
import { SECRET_HEADERS, authHeader, printable } from '../../api/contract/index.js';
import { bodyShown, withheldDetail } from '../history.js';
import { createProbeMetrics } from '../metrics/probe-metrics.js';
import { MonitorRegistry } from '../metrics/registry.js';
import type { ProbeResult } from '../probe/run.js';
import type { ProbeSpec } from '../probe/spec.js';

type DebugQuery = Readonly<Record<'target' | 'key' | 'endpoint' | 'tenant' | 'check', string | null>>;

export type ProbeIndex = ReturnType<typeof indexProbes>;

const lookupKey = (...parts: string[]): string => parts.join('\u0000');

/**
 * The probes `/probe` may pick, indexed once per plan: a lookup per request, not a scan of
 * every probe (35 000 at 5 000 keys). The first probe wins where several match, as in plan order:
 * `exact` by target, key alias, endpoint, check and tenant, `anyTenant` without the tenant.
 */
export function indexProbes(probes: readonly ProbeSpec[]) {
  const exact = new Map<string, ProbeSpec>();
  const anyTenant = new Map<string, ProbeSpec>();
  const aliases = new Map<string, Set<string>>();
  for (const p of probes) {
    // A read the key's expect refuses is still the key's read of that endpoint (`check` left out).
    for (const check of p.check === 'expected_refusal' ? [p.check, 'read'] : [p.check]) {
      const k = lookupKey(p.target, p.keyAlias, p.endpoint, check);
      if (!anyTenant.has(k)) anyTenant.set(k, p);
      const withTenant = lookupKey(k, p.tenant);
      if (!exact.has(withTenant)) exact.set(withTenant, p);
    }
    let set = aliases.get(p.target);
    if (!set) aliases.set(p.target, (set = new Set()));
    set.add(p.keyAlias);
  }
  return { exact, anyTenant, aliases: new Map([...aliases].map(([t, set]) => [t, [...set]])) } as const;
}

/** Enough aliases to spot a typo; at 5 000 keys the whole list was a 100 KB answer to a miss. */
const ALIASES_SHOWN = 20;

function aliasHint(aliases: readonly string[]): string {
  if (aliases.length === 0) return '(none: unknown target)';
  const shown = aliases.slice(0, ALIASES_SHOWN).join(', ');
  return aliases.length > ALIASES_SHOWN ? `${shown} and ${aliases.length - ALIASES_SHOWN} more` : shown;
}

export function pickProbe(
  query: DebugQuery,
  index: ProbeIndex,
): { readonly ok: true; readonly spec: ProbeSpec } | { readonly ok: false; readonly status: 400 | 404; readonly message: string } {
  if (!query.target || !query.key || !query.endpoint) {
    return {
      ok: false,
      status: 400,
      message: 'give target, key (alias) and endpoint, e.g. /probe?target=test&key=nowak-test&endpoint=clients&debug=true',
    };
  }
  const k = lookupKey(query.target, query.key, query.endpoint, query.check ?? 'read');
  const spec = query.tenant === null ? index.anyTenant.get(k) : index.exact.get(lookupKey(k, query.tenant));
  if (!spec) {
    return {
      ok: false,
      status: 404,
      message: `no configured probe for that target/key/endpoint/check; key aliases of this target: ${aliasHint(index.aliases.get(query.target) ?? [])}`,
    };
  }
  return { ok: true, spec };
}

function requestHeaders(spec: ProbeSpec): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (spec.credential.kind === 'none') return headers;
  const hint = spec.credential.kind === 'key' ? spec.credential.key.key.hint : '(made-up invalid key)';
  const header = authHeader(spec.credential.kind === 'key' ? spec.credential.scheme : 'bearer', 'X');
  headers[header.name] = `[REDACTED ${hint}]`;
  return headers;
}

function responseHeaders(headers: Readonly<Record<string, string>>, keys: readonly ApiKey[]): Record<string, string> {
  return Object.fromEntries(
    // Header bytes 0x80-0x9f arrive as C1 controls, which JSON leaves as they are.
    Object.entries(headers).map(([name, value]) => [
      name,
      SECRET_HEADERS.includes(name) || name === 'set-cookie' ? '[REDACTED]' : printable(redactSecrets(value, keys)),
    ]),
  );
}

export async function wouldEmit(result: ProbeResult): Promise<string> {
  const registry = new MonitorRegistry();
  const metrics = createProbeMetrics(registry);
  metrics.syncPlan([result.spec]);
  metrics.record(result);
  return registry.metrics();
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

/** What the body looked like, without a byte of its data: the envelope's shape, or its error. */
function envelopeShape(attempt: AttemptResponse): Record<string, unknown> {
  if (!attempt.envelope.valid) return { valid: false, problem: attempt.envelope.problem };
  const envelope = attempt.envelope.envelope;
  if (!envelope.ok) return { valid: true, ok: false, error: { code: envelope.error.code, message: envelope.error.message } };
  const data = envelope.data;
  return { valid: true, ok: true, data: Array.isArray(data) ? { type: 'array', items: data.length } : { type: typeName(data) } };
}

function responseView(spec: ProbeSpec, attempt: AttemptResponse, keys: readonly ApiKey[]): Record<string, unknown> {
  const shown = bodyShown(spec.endpoint);
  return {
    status: attempt.status,
    headers: responseHeaders(attempt.headers, keys),
    bodyBytes: attempt.bodyBytes,
    requestId: attempt.requestId,
    envelope: envelopeShape(attempt),
    ...(shown
      ? // A success's excerpt is scrubbed of the exact key only; a server may echo it escaped, re-cased or cut.
        { bodyExcerpt: scrubKeyEchoes(attempt.bodyExcerpt, keys) }
      : { body: `not shown: ${spec.path} answers with a tenant's or the platform's data; only / and /docs bodies are shown` }),
  };
}

export async function debugReport(result: ProbeResult, keys: readonly ApiKey[]): Promise<Record<string, unknown>> {
  const { spec, verdict, attempt } = result;
  const response = attempt?.kind === 'response' ? responseView(spec, attempt, keys) : undefined;
  return {
    // Together, what support hands the API team to find this request in its logs.
    ids: { traceId: attempt?.traceId, requestId: attempt?.kind === 'response' ? attempt.requestId : undefined },
    probe: {
      id: spec.id,
      target: spec.target,
      endpoint: spec.endpoint,
      tenant: spec.tenant,
      keyAlias: spec.keyAlias,
      check: spec.check,
      expect: spec.expect,
    },
    request: { method: 'GET', path: spec.path, headers: requestHeaders(spec), sent: result.sent },
    timeline: {
      startedAt: new Date(result.startedAt).toISOString(),
      headersMs: attempt?.timings.headersMs,
      totalMs: attempt?.timings.totalMs,
    },
    response,
    failure:
      attempt?.kind === 'failure' ? { kind: attempt.failure.kind, message: redactSecrets(attempt.failure.message, keys) } : undefined,
    outcome: {
      outcome: verdict.outcome,
      expected: verdict.expected,
      success: verdict.success,
      reason: verdict.reason,
      detail: redactSecrets(withheldDetail(spec.endpoint, verdict.detail), keys),
      degraded: result.degraded,
      retryAfterMs: result.retryAfterMs,
    },
    metrics: await wouldEmit(result),
  };
}

/**
 * On-demand probes (`/probe`) spend the same quota as the scheduled ones, so they are paced per
 * key: at most one per `http.onDemandInterval`, and none while the key waits out a server's
 * Retry-After (the hold the scheduled probes honour, `probe/politeness.ts`).
 */
export type OnDemandGate =
  { readonly ok: true } | { readonly ok: false; readonly reason: 'interval' | 'retry_after'; readonly retryAfterMs: number };

/** The server's hold first: it is the API asking, the interval is only ours. */
export function onDemandGate(lastMs: number | undefined, nowMs: number, intervalMs: number, heldMs: number): OnDemandGate {
  if (heldMs > 0) return { ok: false, reason: 'retry_after', retryAfterMs: heldMs };
  const waitMs = lastMs === undefined ? 0 : lastMs + intervalMs - nowMs;
  return waitMs > 0 ? { ok: false, reason: 'interval', retryAfterMs: waitMs } : { ok: true };
}

interface OnDemandLimiter {
  /** Decides and, when it lets the probe through, records it at once (so parallel calls cannot all pass). */
  admit(key: string, nowMs: number, intervalMs: number, heldMs: number): OnDemandGate;
  /** Forgets keys no longer configured. */
  retain(live: ReadonlySet<string>): void;
}

export function createOnDemandLimiter(): OnDemandLimiter {
  const last = new Map<string, number>();
  return {
    admit(key, nowMs, intervalMs, heldMs) {
      const gate = onDemandGate(last.get(key), nowMs, intervalMs, heldMs);
      if (gate.ok) last.set(key, nowMs);
      return gate;
    },
    retain(live) {
      for (const key of last.keys()) if (!live.has(key)) last.delete(key);
    },
  };
}

/** `Retry-After` in whole seconds, rounded up so a client that obeys it is let through. */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
