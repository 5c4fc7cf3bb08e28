/**
 * The probe's and discover's side of the engine (`api/checklist/engine.ts`): each call sent as one
 * plain attempt with the tool's agent and user agent (the user's key, none, or a made-up one),
 * each wait a real one, and what a run spent, against its budget.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { type Call, type PacedRun, type StopReason } from './engine.js';
import { RATE_LIMIT_POLICY } from '../api/client/index.js';
import { ApiKey, type AttemptResult, sendAttempt } from '../api/client/single-attempt.js';
import { type AuthScheme, KEY_PREFIXES } from '../api/contract/index.js';
import { toolAgent, toolUserAgent } from '../lib/index.js';

/** Seconds a run may wait for the server's rate-limit hints, over the whole run (`--max-wait`). */
export const DEFAULT_MAX_WAIT_S = RATE_LIMIT_POLICY.probeMaxWaitMs / 1000;

/** Sends one call; undefined when it was not sent (the run was cancelled). */
export type Send = (call: Call) => Promise<AttemptResult | undefined>;
export type Wait = (ms: number, check: string) => Promise<void>;

/** What the requests of one run spent, against its budget. */
export interface Traffic {
  readonly requestBudget: number;
  readonly requestsSent: number;
  readonly maxWaitMs: number;
  readonly waitedMs: number;
  readonly waits: PacedRun['waits'];
  readonly stopped: StopReason | undefined;
  readonly notRun: readonly string[];
}

export function trafficOf(run: PacedRun): Traffic {
  return {
    requestBudget: run.limits.budget,
    requestsSent: run.requests,
    maxWaitMs: run.limits.maxWaitMs,
    waitedMs: run.waitedMs,
    waits: run.waits,
    stopped: run.stopped,
    notRun: [...run.records.values()].filter((r) => r.result === undefined).map((r) => r.call.id),
  };
}

export interface SendOptions {
  readonly baseUrl: string;
  /** The user's key; calls without one (or with none given) go without a key header. */
  readonly key: ApiKey | undefined;
  readonly auth: AuthScheme;
  readonly timeoutS: number;
  /** Tests pass a MockAgent; otherwise an agent is created and closed here. */
  readonly dispatcher?: Dispatcher;
  /** False (`--no-proxy`): direct, whatever the proxy variables in `env` (process.env by default) say. */
  readonly proxy?: boolean;
  readonly env?: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
  readonly onProgress?: (done: number, label: string) => void;
  /** Tests wait no real time. */
  readonly wait?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
}

/** An interrupted wait just ends early: the next attempt sees the aborted signal and says so. */
async function realWait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  await sleep(ms, undefined, { signal }).catch(() => undefined);
}

/** Shaped like a test key so it reaches the key check; random, so it is never a real one. */
function madeUpKey(): ApiKey {
  return new ApiKey(`${KEY_PREFIXES.test}repairmon_discover_${randomBytes(12).toString('hex')}`, 'made-up-key');
}

/** `send` and `wait` over the network, and the agent to close after the run (unless one was passed). */
export function attemptSender(options: SendOptions) {
  const owned = options.dispatcher ? undefined : toolAgent(options.timeoutS * 1000, options.proxy !== false, options.env ?? process.env);
  const dispatcher = options.dispatcher ?? owned!;
  const madeUp = madeUpKey();
  const userAgent = toolUserAgent();
  let sent = 0;
  const send = async (call: Call): Promise<AttemptResult> => {
    const who = call.auth === 'none' ? 'no key' : call.madeUpKey ? 'made-up key' : call.auth;
    options.onProgress?.(sent, `GET ${call.path} (${who})`);
    sent += 1;
    return sendAttempt({
      dispatcher,
      baseUrl: options.baseUrl,
      path: call.path,
      endpoint: call.endpoint,
      key: call.auth === 'none' ? undefined : call.madeUpKey ? madeUp : options.key,
      authScheme: call.auth === 'none' ? options.auth : call.auth,
      timeoutMs: options.timeoutS * 1000,
      signal: options.signal,
      userAgent,
    });
  };
  const wait: Wait = async (ms, check) => {
    options.onProgress?.(sent, `waiting ${Math.ceil(ms / 1000)} s (Retry-After on ${check})`);
    await (options.wait ?? realWait)(ms, options.signal);
  };
  return { send, wait, close: async () => owned?.close() };
}
