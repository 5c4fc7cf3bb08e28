/**
 * Discovery's I/O edge: the planned GETs, one attempt each and one after another, then the
 * pure report. It stops after /docs when the host does not answer as API v1, so no key, not
 * even a made-up one, goes to a host that is not the API.
 */
import { randomBytes } from 'node:crypto';
import { Agent, type Dispatcher } from 'undici';
import { type AuthScheme, KEY_PREFIXES } from '../api/contract/index.js';
import { ApiKey, sendAttempt } from '../api/client/single-attempt.js';
import { tenantListing } from './findings/slugs.js';
import { type CallRecord, DOCS_CALL, type DiscoveryCall, INDEX_CALL, PLACEHOLDER_TENANT, keyedCalls, refusalCalls } from './plan.js';
import { buildDiscoveryReport, hostCheck, platformPathsOf } from './report.js';
import type { DiscoveryReport } from './types.js';

export interface DiscoveryOptions {
  /** Checked by the contract's checkBaseUrl: ends in /api/v1, no credentials or query. */
  readonly baseUrl: string;
  /** Optional: without one, discovery learns what needs no key. */
  readonly key: ApiKey | undefined;
  readonly auth: AuthScheme;
  /** --tenant */
  readonly tenant: string | undefined;
  readonly timeoutS: number;
  /** Tests pass a MockAgent; otherwise an Agent is created and closed here. */
  readonly dispatcher?: Dispatcher;
  readonly signal?: AbortSignal;
  readonly onProgress?: (done: number, label: string) => void;
}

export const MADE_UP_KEY_ALIAS = 'made-up-key';

/** Shaped like a test key so it reaches the key check; random, so it is never a real one. */
function madeUpKey(): ApiKey {
  return new ApiKey(`${KEY_PREFIXES.test}repairmon_discover_${randomBytes(12).toString('hex')}`, MADE_UP_KEY_ALIAS);
}

function createRunner(options: DiscoveryOptions, dispatcher: Dispatcher) {
  const records = new Map<string, CallRecord>();
  const madeUp = madeUpKey();
  const keyFor = (call: DiscoveryCall): ApiKey | undefined => (call.credential === 'key' ? options.key : call.credential === 'made-up' ? madeUp : undefined);
  const run = async (calls: readonly DiscoveryCall[]): Promise<void> => {
    for (const call of calls) {
      if (options.signal?.aborted) return;
      options.onProgress?.(records.size, `GET ${call.path} (${call.credential === 'key' ? options.auth : call.credential})`);
      const result = await sendAttempt({
        dispatcher,
        baseUrl: options.baseUrl,
        path: call.path,
        endpoint: call.endpoint,
        key: keyFor(call),
        authScheme: options.auth,
        timeoutMs: options.timeoutS * 1000,
        signal: options.signal,
      });
      records.set(call.id, { call, result });
    }
  };
  return { records, run };
}

export async function runDiscovery(options: DiscoveryOptions): Promise<DiscoveryReport> {
  const owned = options.dispatcher === undefined ? new Agent({ connect: { timeout: options.timeoutS * 1000 } }) : undefined;
  const dispatcher = options.dispatcher ?? owned!;
  try {
    const runner = createRunner(options, dispatcher);
    await runner.run([DOCS_CALL]);
    const docs = runner.records.get(DOCS_CALL.id)?.result;
    if (hostCheck(docs).kind === 'api_v1') {
      await runner.run([INDEX_CALL]);
      if (options.key) await runner.run(keyedCalls(platformPathsOf(docs), options.tenant));
      // A real tenant where one is known: a made-up slug may be answered before the key is read.
      const tenant = options.tenant ?? tenantListing(runner.records)?.slugs[0] ?? PLACEHOLDER_TENANT;
      await runner.run(refusalCalls(tenant));
    }
    return buildDiscoveryReport({ baseUrl: options.baseUrl, auth: options.auth, keyHint: options.key?.hint, tenant: options.tenant, observations: runner.records });
  } finally {
    await owned?.close();
  }
}
