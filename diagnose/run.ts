/**
 * The probe's I/O edge: makes the planned calls one after another with the same single attempt
 * the monitor uses, then hands the observations to the pure report builder.
 */
import { Agent, type Dispatcher } from 'undici';
import { type AuthScheme, PLATFORM_PATHS, environmentHint, joinUrl, platformPathsInDocs } from '../api/contract/index.js';
import { hostUnreachable } from '../api/checklist/index.js';
import type { ApiKey } from '../api/client/index.js';
import { type AttemptResult, sendAttempt } from '../api/client/single-attempt.js';
import type { CallRecord, DiagnosisCall } from './observe.js';
import { DOCS_CALL, firstPhaseCalls, inferTenant, resourceCalls } from './plan.js';
import { buildReport } from './report.js';
import type { StepContext } from './steps/context.js';
import type { DiagnosisTarget } from './target.js';
import type { DiagnosisReport } from './types.js';

export interface DiagnosisOptions {
  readonly target: DiagnosisTarget;
  readonly key: ApiKey;
  readonly auth: AuthScheme;
  /** --platform-path; undefined: the sub-paths /docs lists, else none (readings.ts PLATFORM_PATHS). */
  readonly platformPaths: readonly string[] | undefined;
  /** --tenant */
  readonly tenant: string | undefined;
  readonly timeoutS: number;
  /** Tests pass a MockAgent; otherwise an Agent is created and closed here. */
  readonly dispatcher?: Dispatcher;
  readonly signal?: AbortSignal;
  readonly onProgress?: (done: number, label: string) => void;
}

interface Runner {
  readonly records: Map<string, CallRecord>;
  run(calls: readonly DiagnosisCall[]): Promise<void>;
}

function createRunner(options: DiagnosisOptions, dispatcher: Dispatcher): Runner {
  const records = new Map<string, CallRecord>();
  let unreachable = false;
  let done = 0;
  const run = async (calls: readonly DiagnosisCall[]): Promise<void> => {
    for (const call of calls) {
      const url = joinUrl(options.target.baseUrl, call.path);
      if (unreachable) {
        records.set(call.id, { call, url, result: undefined });
        continue;
      }
      options.onProgress?.(done, `GET ${call.path} (${call.auth})`);
      const result = await sendAttempt({
        dispatcher,
        baseUrl: options.target.baseUrl,
        path: call.path,
        endpoint: call.endpoint,
        key: call.auth === 'none' ? undefined : options.key,
        authScheme: call.auth === 'none' ? options.auth : call.auth,
        timeoutMs: options.timeoutS * 1000,
        signal: options.signal,
      });
      done += 1;
      records.set(call.id, { call, url, result });
      if (call.id === 'docs' && hostUnreachable(result)) unreachable = true;
    }
  };
  return { records, run };
}

function tenantPlan(options: DiagnosisOptions, inferred: () => string | undefined): Pick<StepContext, 'probedTenant' | 'tenantSource' | 'keyTenant'> {
  const urlTenant = options.target.urlTenant;
  if (urlTenant !== undefined) return { probedTenant: urlTenant, tenantSource: 'url', keyTenant: options.tenant };
  if (options.tenant !== undefined) return { probedTenant: options.tenant, tenantSource: 'flag', keyTenant: undefined };
  const guess = inferred();
  return guess === undefined ? { probedTenant: undefined, tenantSource: 'none', keyTenant: undefined } : { probedTenant: guess, tenantSource: 'inferred', keyTenant: undefined };
}

function learnedPlatformPaths(docs: AttemptResult | undefined): string[] {
  if (docs?.kind !== 'response' || docs.classification.kind !== 'ok') return [...PLATFORM_PATHS.default];
  return platformPathsInDocs(docs.classification.data);
}

export async function runDiagnosis(options: DiagnosisOptions): Promise<DiagnosisReport> {
  const owned = options.dispatcher === undefined ? new Agent({ connect: { timeout: options.timeoutS * 1000 } }) : undefined;
  const dispatcher = options.dispatcher ?? owned!;
  try {
    const runner = createRunner(options, dispatcher);
    await runner.run([DOCS_CALL]);
    const platformPaths = options.platformPaths ?? learnedPlatformPaths(runner.records.get(DOCS_CALL.id)?.result);
    await runner.run(firstPhaseCalls(options.auth, platformPaths));
    const tenants = tenantPlan(options, () => inferTenant(runner.records, platformPaths));
    if (tenants.probedTenant !== undefined) await runner.run(resourceCalls(options.auth, tenants.probedTenant));
    return buildReport({
      target: options.target,
      auth: options.auth,
      keyHint: options.key.hint,
      keyEnvironment: environmentHint(options.key.reveal()),
      platformPaths,
      ...tenants,
      timeoutS: options.timeoutS,
      observations: runner.records,
    });
  } finally {
    await owned?.close();
  }
}
