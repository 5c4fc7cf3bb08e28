/** What a probe expects back: the outcome that counts as success, and why. */
import { ANSWER_KINDS, type AnswerKind } from '../../api/contract/index.js';

/** The `outcome` label's values: the contract's answer kinds plus the monitor's own `assertion_failed` (data where a refusal was expected). */
export const OUTCOMES = [...ANSWER_KINDS, 'assertion_failed'] as const;
export type Outcome = AnswerKind | 'assertion_failed';

export type RefusalKind = Extract<AnswerKind, 'unauthorized' | 'tenant_mismatch' | 'insufficient_scope' | 'forbidden' | 'not_found'>;

/**
 * What data coming back where a refusal was expected means: a canary's breach (another tenant's
 * data, or /platform/ or an invalid key served data), or `unexpected_access`, a key reading a
 * resource its `expect` in monitor.yaml says it must be refused.
 */
export type BreachKind = 'tenant_isolation_breach' | 'authorization_breach' | 'unexpected_access';

export type Expectation =
  /** A read that must succeed; `list` endpoints report their item count. */
  | { readonly kind: 'success'; readonly list: boolean }
  /**
   * A request that must be refused (a canary, or a read the key's `expect` refuses). Any refusal
   * (401, 403 or 404) passes: what a server refuses with is mostly not shown by the spec. A
   * refusal with another code than `specCode` (named by the spec or by the key's `expect`,
   * `codeSource`) still passes, reported as a deviation (a ticket), never as a breach. Data
   * coming back instead is an assertion failure.
   */
  | {
      readonly kind: 'refusal';
      readonly outcome: RefusalKind;
      readonly specCode: string | undefined;
      readonly codeSource: 'spec' | 'config';
      readonly breach: BreachKind;
      /** What the breach means, for people. */
      readonly breachDetail: string;
    };

export function expectedOutcome(expect: Expectation): Outcome {
  return expect.kind === 'success' ? 'ok' : expect.outcome;
}
