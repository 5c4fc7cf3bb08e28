/**
 * Discovery's plan, carried out by the engine (`diagnose/`): `discoverWith` walks the plan with
 * the sending passed in (tests answer from recorded fixtures), paced like the probe (one attempt
 * per call, one after another, within MAX_REQUESTS, a short Retry-After waited out once);
 * `runDiscovery` sends each call as one real attempt. Each phase waits for the one before,
 * because /docs names the platform sub-paths and a tenant listing names a real tenant.
 */
import { DOCS_CALL } from '../api/checklist/index.js';
import { type Paced, type PacedRun, drive, pacedCall, pacedRun } from '../diagnose/index.js';
import { DEFAULT_MAX_WAIT_S, type Send, type SendOptions, type Wait, attemptSender } from '../diagnose/index.js';
import { tenantListing } from './findings/slugs.js';
import { INDEX_CALL, MAX_REQUESTS, PLACEHOLDER_TENANT, keyedCalls, refusalCalls } from './plan.js';
import { type DiscoveryReport, type DiscoverySettings, buildDiscoveryReport, hostCheck, platformPathsOf } from './report.js';

function* plan(run: PacedRun, settings: DiscoverySettings): Paced<void> {
  const docs = (yield* pacedCall(run, DOCS_CALL)).result;
  // Not API v1: stop before any key, even a made-up one, goes to that host.
  if (hostCheck(docs).kind !== 'api_v1') return;
  yield* pacedCall(run, INDEX_CALL);
  if (settings.keyHint !== undefined)
    for (const call of keyedCalls(settings.auth, settings.platformPaths ?? platformPathsOf(docs), settings.tenant))
      yield* pacedCall(run, call);
  // A real tenant where one is known: a made-up slug may be answered before the key is read.
  const tenant = settings.tenant ?? tenantListing(run.records)?.slugs[0] ?? PLACEHOLDER_TENANT;
  for (const call of refusalCalls(settings.auth, tenant)) yield* pacedCall(run, call);
}

export async function discoverWith(send: Send, settings: DiscoverySettings, wait: Wait): Promise<DiscoveryReport> {
  const run = pacedRun(settings.baseUrl, { budget: MAX_REQUESTS, maxWaitMs: DEFAULT_MAX_WAIT_S * 1000 });
  await drive(plan(run, settings), send, wait);
  // Calls the run stopped before (a 429, the budget, a cancel) were not asked: the findings say so.
  const asked = [...run.records].filter(([, record]) => record.result !== undefined);
  return buildDiscoveryReport(settings, new Map(asked), run.stopped);
}

interface DiscoveryOptions extends Omit<DiscoverySettings, 'keyHint'>, Omit<SendOptions, 'wait'> {}

export async function runDiscovery(options: DiscoveryOptions): Promise<DiscoveryReport> {
  const sender = attemptSender(options);
  try {
    const { baseUrl, auth, tenant, platformPaths } = options;
    // A cancelled run sends nothing more and reports what it learned.
    const send: Send = async (call) => (options.signal?.aborted ? undefined : sender.send(call));
    return await discoverWith(send, { baseUrl, auth, keyHint: options.key?.hint, tenant, platformPaths }, sender.wait);
  } finally {
    await sender.close();
  }
}
