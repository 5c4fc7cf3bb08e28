/**
 * Discovery's calls, in order: `discoverWith` decides what to ask and when to stop, with the
 * sending passed in (tests answer from recorded fixtures); `runDiscovery` sends each as one
 * real attempt (`sendAttempt`: no retries, never throws), one after another. Each phase waits
 * for the one before, because /docs names the platform sub-paths and a tenant listing names a
 * real tenant.
 */
import { randomBytes } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { KEY_PREFIXES, joinUrl } from '../api/contract/index.js';
import { ApiKey, type AttemptResult, sendAttempt } from '../api/client/single-attempt.js';
import { toolAgent, toolUserAgent } from '../lib/index.js';
import { type Call, type CallRecord, DOCS_CALL } from '../diagnose/index.js';
import { tenantListing } from './findings/slugs.js';
import { INDEX_CALL, PLACEHOLDER_TENANT, keyedCalls, refusalCalls } from './plan.js';
import { type DiscoveryReport, type DiscoverySettings, buildDiscoveryReport, hostCheck, platformPathsOf } from './report.js';

/** Sends one call; undefined when it was not sent (the run was cancelled). */
type Send = (call: Call) => Promise<AttemptResult | undefined>;

export async function discoverWith(send: Send, settings: DiscoverySettings): Promise<DiscoveryReport> {
  const records = new Map<string, CallRecord>();
  const run = async (calls: readonly Call[]): Promise<void> => {
    for (const call of calls) {
      const result = await send(call);
      if (result === undefined) return;
      records.set(call.id, { call, url: joinUrl(settings.baseUrl, call.path), result, attempts: 1 });
    }
  };
  await run([DOCS_CALL]);
  const docs = records.get(DOCS_CALL.id)?.result;
  // Not API v1: stop before any key, even a made-up one, goes to that host.
  if (hostCheck(docs).kind === 'api_v1') {
    await run([INDEX_CALL]);
    if (settings.keyHint !== undefined)
      await run(keyedCalls(settings.auth, settings.platformPaths ?? platformPathsOf(docs), settings.tenant));
    // A real tenant where one is known: a made-up slug may be answered before the key is read.
    await run(refusalCalls(settings.auth, settings.tenant ?? tenantListing(records)?.slugs[0] ?? PLACEHOLDER_TENANT));
  }
  return buildDiscoveryReport(settings, records);
}

interface DiscoveryOptions extends Omit<DiscoverySettings, 'keyHint'> {
  /** Optional: without one, discovery learns what needs no key. */
  readonly key: ApiKey | undefined;
  readonly timeoutS: number;
  /** Tests pass a MockAgent; otherwise an agent is created and closed here. */
  readonly dispatcher?: Dispatcher;
  /** False (`--no-proxy`): direct, whatever HTTPS_PROXY / HTTP_PROXY say; by default as `env` says. */
  readonly proxy?: boolean;
  /** Where the proxy variables are read; process.env by default. */
  readonly env?: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
  readonly onProgress?: (done: number, label: string) => void;
}

const MADE_UP_KEY_ALIAS = 'made-up-key';

/** Shaped like a test key so it reaches the key check; random, so it is never a real one. */
function madeUpKey(): ApiKey {
  return new ApiKey(`${KEY_PREFIXES.test}repairmon_discover_${randomBytes(12).toString('hex')}`, MADE_UP_KEY_ALIAS);
}

function attemptSender(options: DiscoveryOptions, dispatcher: Dispatcher): Send {
  const madeUp = madeUpKey();
  const userAgent = toolUserAgent();
  let sent = 0;
  return async (call) => {
    if (options.signal?.aborted) return undefined;
    options.onProgress?.(sent, `GET ${call.path} (${call.auth === 'none' ? 'no key' : call.madeUpKey ? 'made-up key' : call.auth})`);
    sent += 1;
    return sendAttempt({
      dispatcher,
      baseUrl: options.baseUrl,
      path: call.path,
      endpoint: call.endpoint,
      key: call.auth === 'none' ? undefined : call.madeUpKey ? madeUp : options.key,
      authScheme: options.auth,
      timeoutMs: options.timeoutS * 1000,
      signal: options.signal,
      userAgent,
    });
  };
}

export async function runDiscovery(options: DiscoveryOptions): Promise<DiscoveryReport> {
  const owned =
    options.dispatcher === undefined ? toolAgent(options.timeoutS * 1000, options.proxy !== false, options.env ?? process.env) : undefined;
  const dispatcher = options.dispatcher ?? owned!;
  try {
    const { baseUrl, auth, tenant, platformPaths } = options;
    return await discoverWith(attemptSender(options, dispatcher), { baseUrl, auth, keyHint: options.key?.hint, tenant, platformPaths });
  } finally {
    await owned?.close();
  }
}
