/**
 * The probe's I/O edge: carries out the schedule's steps (one plain attempt per call, the same
 * `sendAttempt` the monitor uses, and real waits), then builds the report.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { type AuthScheme, environmentHint } from '../api/contract/index.js';
import { PLATFORM_PATHS, platformPathsInDocs } from '../api/contract/readings.js';
import type { ApiKey } from '../api/client/index.js';
import { type AttemptResult, sendAttempt } from '../api/client/single-attempt.js';
import { toolAgent, toolUserAgent } from '../lib/index.js';
import { okData } from './observations.js';
import { DEFAULT_MAX_WAIT_S, REQUEST_BUDGET } from './pacing.js';
import { buildReport } from './report.js';
import { type Answered, type ScheduleOutcome, schedule } from './schedule.js';
import type { DiagnosisTarget } from './target.js';
import type { DiagnosisReport } from './verdict.js';

interface DiagnosisOptions {
  readonly target: DiagnosisTarget;
  readonly key: ApiKey;
  readonly auth: AuthScheme;
  /** --platform-path; undefined: the sub-paths /docs lists, else none (readings.ts PLATFORM_PATHS). */
  readonly platformPaths: readonly string[] | undefined;
  readonly tenant: string | undefined;
  readonly timeoutS: number;
  readonly maxWaitS?: number;
  /** Tests pass a MockAgent; otherwise an agent is created and closed here. */
  readonly dispatcher?: Dispatcher;
  /** False (`--no-proxy`): direct, whatever the proxy variables in `env` (process.env by default) say. */
  readonly proxy?: boolean;
  readonly env?: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
  readonly onProgress?: (done: number, label: string) => void;
  readonly wait?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
}

function learnedPlatformPaths(docs: AttemptResult | undefined): string[] {
  const listing = okData(docs);
  return listing ? platformPathsInDocs(listing.data) : [...PLATFORM_PATHS.default];
}

/** An interrupted wait just ends early: the next attempt sees the aborted signal and says so. */
async function defaultWait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  await sleep(ms, undefined, { signal }).catch(() => undefined);
}

async function carryOut(options: DiagnosisOptions, dispatcher: Dispatcher): Promise<ScheduleOutcome> {
  const wait = options.wait ?? defaultWait;
  const userAgent = toolUserAgent();
  const steps = schedule({
    baseUrl: options.target.baseUrl,
    auth: options.auth,
    urlTenant: options.target.urlTenant,
    tenant: options.tenant,
    platformPaths: options.platformPaths,
    learnPlatformPaths: learnedPlatformPaths,
    limits: { budget: REQUEST_BUDGET, maxWaitMs: (options.maxWaitS ?? DEFAULT_MAX_WAIT_S) * 1000 },
  });
  let done = 0;
  let step = steps.next();
  while (!step.done) {
    let answered: Answered | undefined;
    if (step.value.kind === 'wait') {
      options.onProgress?.(done, `waiting ${Math.ceil(step.value.ms / 1000)} s (Retry-After on ${step.value.check})`);
      await wait(step.value.ms, options.signal);
    } else {
      const { path, endpoint, auth } = step.value.call;
      options.onProgress?.(done, `GET ${path} (${auth})`);
      const result = await sendAttempt({
        dispatcher,
        baseUrl: options.target.baseUrl,
        path,
        endpoint,
        key: auth === 'none' ? undefined : options.key,
        authScheme: auth === 'none' ? options.auth : auth,
        timeoutMs: options.timeoutS * 1000,
        signal: options.signal,
        userAgent,
      });
      answered = { result, atMs: Date.now() };
      done += 1;
    }
    step = steps.next(answered);
  }
  return step.value;
}

export async function runDiagnosis(options: DiagnosisOptions): Promise<DiagnosisReport> {
  const owned = options.dispatcher ? undefined : toolAgent(options.timeoutS * 1000, options.proxy !== false, options.env ?? process.env);
  try {
    const outcome = await carryOut(options, options.dispatcher ?? owned!);
    return buildReport({
      target: options.target,
      auth: options.auth,
      keyHint: options.key.hint,
      keyEnvironment: environmentHint(options.key.reveal()),
      platformPaths: outcome.platformPaths,
      ...outcome.tenants,
      timeoutS: options.timeoutS,
      observations: outcome.records,
      traffic: outcome.traffic,
    });
  } finally {
    await owned?.close();
  }
}
