/**
 * Which faults fire for one request. Latencies add up, `isolation-breach` changes the access
 * decision, and the first rule that replaces or bends the response wins.
 */
import type { Random } from '../random.js';
import type { FaultAction, FaultRule } from './parse.js';

export type ResponseFault = Exclude<FaultAction, { kind: 'latency' | 'isolation-breach' }>;

export interface FaultPlan {
  readonly latencyMs: number;
  readonly breach: boolean;
  readonly response: ResponseFault | undefined;
  /** Sources of the rules that fired, for the request log. */
  readonly fired: readonly string[];
}

export const NO_FAULTS: FaultPlan = { latencyMs: 0, breach: false, response: undefined, fired: [] };

function applies(rule: FaultRule, relativePath: string | undefined, random: Random): boolean {
  if (rule.pattern && (relativePath === undefined || !rule.pattern.test(relativePath))) return false;
  if (rule.probability >= 1) return true;
  if (rule.probability <= 0) return false;
  return random() < rule.probability;
}

/** `relativePath` is the request path below /api/v1 (`/` for the base itself), if it is below it. */
export function planFaults(rules: readonly FaultRule[], relativePath: string | undefined, random: Random): FaultPlan {
  if (rules.length === 0) return NO_FAULTS;
  let latencyMs = 0;
  let breach = false;
  let response: ResponseFault | undefined;
  const fired: string[] = [];
  for (const rule of rules) {
    if (!applies(rule, relativePath, random)) continue;
    const { action } = rule;
    if (action.kind === 'latency') latencyMs += action.ms;
    else if (action.kind === 'isolation-breach') breach = true;
    else if (response === undefined) response = action;
    else continue;
    fired.push(rule.source);
  }
  return { latencyMs, breach, response, fired };
}
