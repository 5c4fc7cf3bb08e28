/** `repairmon probe`: the probe's plan carried out by the engine's sender, then its report. */
import { environmentHint } from '../api/contract/index.js';
import type { ApiKey } from '../api/client/index.js';
import { REQUEST_BUDGET, drive } from './engine.js';
import { buildReport } from './report.js';
import { schedule } from './schedule.js';
import { DEFAULT_MAX_WAIT_S, type SendOptions, attemptSender } from './send.js';
import type { DiagnosisTarget } from './target.js';
import type { DiagnosisReport } from './verdict.js';

interface DiagnosisOptions extends Omit<SendOptions, 'baseUrl' | 'key'> {
  readonly target: DiagnosisTarget;
  readonly key: ApiKey;
  /** --platform-path; undefined: the sub-paths /docs lists, else none (readings.ts PLATFORM_PATHS). */
  readonly platformPaths: readonly string[] | undefined;
  readonly tenant: string | undefined;
  readonly maxWaitS?: number;
}

export async function runDiagnosis(options: DiagnosisOptions): Promise<DiagnosisReport> {
  const sender = attemptSender({ ...options, baseUrl: options.target.baseUrl });
  try {
    const steps = schedule({
      baseUrl: options.target.baseUrl,
      auth: options.auth,
      urlTenant: options.target.urlTenant,
      tenant: options.tenant,
      platformPaths: options.platformPaths,
      limits: { budget: REQUEST_BUDGET, maxWaitMs: (options.maxWaitS ?? DEFAULT_MAX_WAIT_S) * 1000 },
    });
    // Every call is sent (an interrupted one is recorded as such), so the plan always ends.
    const outcome = (await drive(steps, sender.send, sender.wait))!;
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
    await sender.close();
  }
}
