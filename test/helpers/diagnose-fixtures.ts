/** Fabricated observations for the pure report: real envelope parsing and classification. */
import { type AuthScheme, type EndpointId, classifyResponse, endpointSpec, joinUrl, parseEnvelope } from '../../api/contract/index.js';
import { errorEnvelope } from '../../api/contract/server/index.js';
import { DOCS_CALL } from '../../api/checklist/index.js';
import {
  type Answer as Answered,
  type Call,
  type CallRecord,
  REQUEST_BUDGET,
  type StopReason,
  retryHintOf,
} from '../../diagnose/engine.js';
import type { AttemptFailure, AttemptResponse, AttemptResult } from '../../api/client/single-attempt.js';
import { DEFAULT_MAX_WAIT_S, type Traffic } from '../../diagnose/send.js';
import { indexCall, otherHeaderCall, platformCall, resourceCalls } from '../../diagnose/plan.js';
import { buildReport, type ReportInput } from '../../diagnose/report.js';
import { type ScheduleOutcome, schedule } from '../../diagnose/schedule.js';
import { parseTarget } from '../../diagnose/target.js';
import type { DiagnosisReport } from '../../diagnose/verdict.js';

export const BASE = 'http://127.0.0.1:1234/api/v1';

let ids = 0;
export function response(
  status: number,
  body: unknown,
  endpoint: EndpointId = 'index',
  headers: Record<string, string> = {},
): AttemptResponse {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const envelope = parseEnvelope(text, { status, list: endpointSpec(endpoint).list });
  ids += 1;
  const all: Record<string, string> = { 'x-request-id': `req-${ids}`, ...headers };
  return {
    kind: 'response',
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
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

export const ok = (endpoint: EndpointId = 'index'): AttemptResponse =>
  response(200, { ok: true, data: endpointSpec(endpoint).list ? [] : {} }, endpoint);
export const err = (status: number, code: string, endpoint: EndpointId = 'index', headers: Record<string, string> = {}): AttemptResponse =>
  response(status, errorEnvelope(code, `komunikat ${code}`), endpoint, headers);
export const refused = (): AttemptFailure => ({
  kind: 'failure',
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  failure: { kind: 'connection', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' },
  timings: { headersMs: undefined, totalMs: 1 },
});

export type Answer = (call: Call) => AttemptResult | undefined;

export interface Scenario {
  readonly answer: Answer;
  readonly auth?: AuthScheme;
  readonly baseUrl?: string;
  readonly tenant?: string;
  readonly keyTenant?: string;
  readonly keyEnvironment?: ReportInput['keyEnvironment'];
}

function targetOf(s: Scenario) {
  const parsed = parseTarget(s.baseUrl ?? BASE);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.target;
}

function reportOf(s: Scenario, outcome: ScheduleOutcome): DiagnosisReport {
  return buildReport({
    target: targetOf(s),
    auth: s.auth ?? 'bearer',
    keyHint: '…wXyZ',
    keyEnvironment: s.keyEnvironment ?? 'test',
    platformPaths: outcome.platformPaths,
    ...outcome.tenants,
    timeoutS: 5,
    observations: outcome.records,
    traffic: outcome.traffic,
  });
}

/**
 * Every planned call answered, stopping only when /docs shows the host unreachable: the
 * answers `npm run check` records (it neither waits nor stops on a 429), so the shared
 * checklist test compares the two tools on the same answers.
 */
export function report(s: Scenario): DiagnosisReport {
  const target = targetOf(s);
  const auth = s.auth ?? 'bearer';
  const tenant = target.urlTenant ?? s.tenant;
  const calls = [
    DOCS_CALL,
    ...(tenant ? resourceCalls(auth, tenant) : []),
    platformCall(auth, 'tenants'),
    ...(tenant ? [otherHeaderCall(auth, tenant)] : []),
    indexCall(auth),
  ];
  let stopped: StopReason | undefined;
  const records = new Map<string, CallRecord>();
  for (const call of calls) {
    const result = stopped ? undefined : s.answer(call);
    if (call.id === 'docs' && result?.kind === 'failure' && result.failure.kind !== 'timeout')
      stopped = { kind: 'host_unreachable', check: 'docs' };
    records.set(call.id, {
      call,
      url: joinUrl(target.baseUrl, call.path),
      result,
      attempts: result ? 1 : 0,
      retryHint: result ? retryHintOf(result, NOW) : undefined,
    });
  }
  const sent = [...records.values()].filter((r) => r.result !== undefined);
  const traffic: Traffic = {
    requestBudget: REQUEST_BUDGET,
    requestsSent: sent.length,
    maxWaitMs: DEFAULT_MAX_WAIT_S * 1000,
    waitedMs: 0,
    waits: [],
    stopped,
    notRun: [...records.values()].filter((r) => r.result === undefined).map((r) => r.call.id),
  };
  const tenants = {
    probedTenant: tenant,
    tenantSource: target.urlTenant ? 'url' : tenant ? 'flag' : 'none',
    keyTenant: target.urlTenant ? s.keyTenant : undefined,
    guesses: [],
  } as const;
  return reportOf(s, { records, platformPaths: ['tenants'], tenants, traffic });
}

export const NOW = Date.parse('2026-03-02T10:00:00Z');

export interface PacedScenario extends Scenario {
  readonly platformPaths?: readonly string[];
  readonly maxWaitS?: number;
  readonly budget?: number;
}

export interface PacedRun {
  readonly report: DiagnosisReport;
  /** Every call sent, in order (a retry appears twice). */
  readonly sent: readonly string[];
  readonly waits: readonly number[];
}

/** Through the probe's own schedule (order, budget, waits, stops), on recorded answers. */
export function probeRun(s: PacedScenario): PacedRun {
  const target = targetOf(s);
  const steps = schedule({
    baseUrl: target.baseUrl,
    auth: s.auth ?? 'bearer',
    urlTenant: target.urlTenant,
    tenant: target.urlTenant ? s.keyTenant : s.tenant,
    platformPaths: s.platformPaths ?? ['tenants'],
    limits: { budget: s.budget ?? REQUEST_BUDGET, maxWaitMs: (s.maxWaitS ?? DEFAULT_MAX_WAIT_S) * 1000 },
  });
  const sent: string[] = [];
  const waits: number[] = [];
  let step = steps.next();
  while (!step.done) {
    let answered: Answered | undefined;
    if (step.value.kind === 'wait') waits.push(step.value.ms);
    else {
      const { call } = step.value;
      sent.push(call.id);
      const result = s.answer(call);
      if (!result) throw new Error(`the scenario has no answer for ${call.id}`);
      answered = { result, atMs: NOW };
    }
    step = steps.next(answered);
  }
  return { report: reportOf(s, step.value), sent, waits };
}

/** A healthy API answering as it would for a tenant key of `own`. */
export function tenantKeyApi(own: string, overrides: Record<string, () => AttemptResult> = {}): Answer {
  return (call) => {
    const override = overrides[call.id];
    if (override) return override();
    if (call.id.startsWith('platform:')) return err(403, 'platform_key_required', 'platform');
    if (call.path.startsWith('/tenants/'))
      return call.path.startsWith(`/tenants/${own}/`) ? ok(call.endpoint) : err(403, 'tenant_key_tenant_mismatch', call.endpoint);
    return ok(call.endpoint);
  };
}

export function row(r: DiagnosisReport, check: string) {
  const found = r.checks.find((c) => c.check === check);
  if (!found) throw new Error(`no row ${check}`);
  return found;
}
