/**
 * The order of discovery's calls, with the sending left to the caller: `run.ts` sends each as
 * one real attempt, tests answer from recorded fixtures. Each phase waits for the one before,
 * because /docs names the platform sub-paths and a tenant listing names a real tenant.
 */
import type { AuthScheme } from '../api/contract/index.js';
import type { AttemptResult } from '../api/client/single-attempt.js';
import { tenantListing } from './findings/slugs.js';
import { type CallRecord, DOCS_CALL, type DiscoveryCall, INDEX_CALL, PLACEHOLDER_TENANT, keyedCalls, refusalCalls } from './plan.js';
import { buildDiscoveryReport, hostCheck, platformPathsOf } from './report.js';
import type { DiscoveryReport } from './types.js';

/** Sends one call; undefined when it was not sent (the run was cancelled). */
export type Send = (call: DiscoveryCall) => Promise<AttemptResult | undefined>;

export interface DiscoverySettings {
  readonly baseUrl: string;
  readonly auth: AuthScheme;
  /** ApiKey.hint of the user's key; undefined without one (then no call presents it). */
  readonly keyHint: string | undefined;
  /** --tenant */
  readonly tenant: string | undefined;
}

export async function discoverWith(send: Send, settings: DiscoverySettings): Promise<DiscoveryReport> {
  const records = new Map<string, CallRecord>();
  const run = async (calls: readonly DiscoveryCall[]): Promise<void> => {
    for (const call of calls) {
      const result = await send(call);
      if (result === undefined) return;
      records.set(call.id, { call, result });
    }
  };
  await run([DOCS_CALL]);
  const docs = records.get(DOCS_CALL.id)?.result;
  // Not API v1: stop before any key, even a made-up one, goes to that host.
  if (hostCheck(docs).kind === 'api_v1') {
    await run([INDEX_CALL]);
    if (settings.keyHint !== undefined) await run(keyedCalls(platformPathsOf(docs), settings.tenant));
    // A real tenant where one is known: a made-up slug may be answered before the key is read.
    await run(refusalCalls(settings.tenant ?? tenantListing(records)?.slugs[0] ?? PLACEHOLDER_TENANT));
  }
  return buildDiscoveryReport({ ...settings, observations: records });
}
