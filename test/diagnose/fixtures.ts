/** Fabricated observations for the pure report: real envelope parsing and classification. */
import { type AuthScheme, type EndpointId, classifyResponse, endpointSpec, joinUrl, parseEnvelope } from '../../api/contract/index.js';
import { errorEnvelope } from '../../api/contract/server/index.js';
import { hostUnreachable } from '../../api/checklist/index.js';
import type { AttemptFailure, AttemptResponse, AttemptResult } from '../../api/client/single-attempt.js';
import type { CallRecord, DiagnosisCall } from '../../diagnose/observe.js';
import { DOCS_CALL, firstPhaseCalls, resourceCalls } from '../../diagnose/plan.js';
import { buildReport, type ReportInput } from '../../diagnose/report.js';
import { parseTarget } from '../../diagnose/target.js';
import type { DiagnosisReport } from '../../diagnose/types.js';

export const BASE = 'http://127.0.0.1:1234/api/v1';

let ids = 0;
export function response(status: number, body: unknown, endpoint: EndpointId = 'index', headers: Record<string, string> = {}): AttemptResponse {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const envelope = parseEnvelope(text, { status, list: endpointSpec(endpoint).list });
  ids += 1;
  const all: Record<string, string> = { 'x-request-id': `req-${ids}`, ...headers };
  return {
    kind: 'response',
    status,
    headers: all,
    envelope,
    classification: classifyResponse(status, envelope, all['location']),
    requestId: all['x-request-id'],
    bodyBytes: text.length,
    bodyExcerpt: text.slice(0, 512),
    timings: { headersMs: 1, totalMs: 2.4 },
  };
}

export const ok = (endpoint: EndpointId = 'index'): AttemptResponse => response(200, { ok: true, data: endpointSpec(endpoint).list ? [] : {} }, endpoint);
export const err = (status: number, code: string, endpoint: EndpointId = 'index', headers: Record<string, string> = {}): AttemptResponse =>
  response(status, errorEnvelope(code, `komunikat ${code}`), endpoint, headers);
export const refused = (): AttemptFailure => ({
  kind: 'failure',
  failure: { kind: 'connection', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' },
  timings: { headersMs: undefined, totalMs: 1 },
});

export type Answer = (call: DiagnosisCall) => AttemptResult | undefined;

export interface Scenario {
  readonly answer: Answer;
  readonly auth?: AuthScheme;
  readonly baseUrl?: string;
  readonly tenant?: string;
  readonly keyTenant?: string;
  readonly keyEnvironment?: ReportInput['keyEnvironment'];
}

export function report(s: Scenario): DiagnosisReport {
  const parsed = parseTarget(s.baseUrl ?? BASE);
  if (!parsed.ok) throw new Error(parsed.reason);
  const auth = s.auth ?? 'bearer';
  const target = parsed.target;
  const tenant = target.urlTenant ?? s.tenant;
  const calls = [DOCS_CALL, ...firstPhaseCalls(auth, ['tenants']), ...(tenant ? resourceCalls(auth, tenant) : [])];
  // As the runner does: once /docs shows the host unreachable, no further call is made.
  let unreachable = false;
  const observations = new Map<string, CallRecord>(
    calls.map((call) => {
      const result = unreachable ? undefined : s.answer(call);
      if (call.id === 'docs' && result && hostUnreachable(result)) unreachable = true;
      return [call.id, { call, url: joinUrl(target.baseUrl, call.path), result }];
    }),
  );
  return buildReport({
    target,
    auth,
    keyHint: '…wXyZ',
    keyEnvironment: s.keyEnvironment ?? 'test',
    platformPaths: ['tenants'],
    probedTenant: tenant,
    tenantSource: target.urlTenant ? 'url' : tenant ? 'flag' : 'none',
    keyTenant: target.urlTenant ? s.keyTenant : undefined,
    timeoutS: 5,
    observations,
  });
}

/** A healthy API answering as it would for a tenant key of `own`. */
export function tenantKeyApi(own: string, overrides: Record<string, () => AttemptResult> = {}): Answer {
  return (call) => {
    const override = overrides[call.id];
    if (override) return override();
    if (call.id.startsWith('platform:')) return err(403, 'platform_key_required', 'platform');
    if (call.id.startsWith('scope:')) return call.path.includes(`/tenants/${own}/`) ? ok(call.endpoint) : err(403, 'tenant_key_tenant_mismatch', call.endpoint);
    return ok(call.endpoint);
  };
}

export function row(r: DiagnosisReport, check: string) {
  const found = r.checks.find((c) => c.check === check);
  if (!found) throw new Error(`no row ${check}`);
  return found;
}
