/**
 * Discovery's I/O edge: each planned GET as one real attempt (`sendAttempt`: no retries,
 * never throws), one after another; `sequence.ts` decides what to ask and when to stop.
 */
import { randomBytes } from 'node:crypto';
import { Agent, type Dispatcher } from 'undici';
import { type AuthScheme, KEY_PREFIXES } from '../api/contract/index.js';
import { ApiKey, sendAttempt } from '../api/client/single-attempt.js';
import type { DiscoveryCall } from './plan.js';
import { type Send, discoverWith } from './sequence.js';
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

function attemptSender(options: DiscoveryOptions, dispatcher: Dispatcher): Send {
  const madeUp = madeUpKey();
  const keyFor = (call: DiscoveryCall): ApiKey | undefined => (call.credential === 'key' ? options.key : call.credential === 'made-up' ? madeUp : undefined);
  let sent = 0;
  return async (call) => {
    if (options.signal?.aborted) return undefined;
    options.onProgress?.(sent, `GET ${call.path} (${call.credential === 'key' ? options.auth : call.credential})`);
    sent += 1;
    return sendAttempt({
      dispatcher,
      baseUrl: options.baseUrl,
      path: call.path,
      endpoint: call.endpoint,
      key: keyFor(call),
      authScheme: options.auth,
      timeoutMs: options.timeoutS * 1000,
      signal: options.signal,
    });
  };
}

export async function runDiscovery(options: DiscoveryOptions): Promise<DiscoveryReport> {
  const owned = options.dispatcher === undefined ? new Agent({ connect: { timeout: options.timeoutS * 1000 } }) : undefined;
  const dispatcher = options.dispatcher ?? owned!;
  try {
    const settings = { baseUrl: options.baseUrl, auth: options.auth, keyHint: options.key?.hint, tenant: options.tenant };
    return await discoverWith(attemptSender(options, dispatcher), settings);
  } finally {
    await owned?.close();
  }
}
