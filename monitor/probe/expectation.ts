/** What a probe expects back: the outcome that counts as success, and why. */
import { ANSWER_KINDS, type AnswerKind } from '../../api/contract/index.js';

/**
 * The `outcome` label's values: the contract's answer kinds, spelled as every tool spells
 * them, plus the monitor's own `assertion_failed` (data where a refusal was expected).
 */
export const OUTCOMES = [...ANSWER_KINDS, 'assertion_failed'] as const;
export type Outcome = AnswerKind | 'assertion_failed';

/** The answers that refuse a request: what a refusal expectation names. */
export type RefusalKind = Extract<AnswerKind, 'unauthorized' | 'tenant_mismatch' | 'insufficient_scope' | 'forbidden' | 'not_found'>;

/** Label-safe name of what data coming back where a refusal was expected means. */
export type BreachKind =
  /** A canary: another tenant's data, or /platform/ or an invalid key served data. */
  | 'tenant_isolation_breach'
  | 'authorization_breach'
  /** A key read a resource its `expect` in monitor.yaml says it must be refused. */
  | 'unexpected_access';

export type Expectation =
  /** A read that must succeed; `list` endpoints report their item count. */
  | { readonly kind: 'success'; readonly list: boolean }
  /**
   * A request that must be refused: a canary, or a key's read its `expect` says is refused.
   * Any refusal (a 401, 403 or 404 answer) passes: what a server refuses with is mostly not
   * shown by the spec. Data coming back instead is an assertion failure, never a pass.
   */
  | {
      readonly kind: 'refusal';
      /** The outcome the spec's (or the config's) wording leads to, shown as what was expected. */
      readonly outcome: RefusalKind;
      /**
       * The error code the spec (or the key's `expect`) names for this refusal, where one is
       * named. A refusal with another code still passes, reported as a deviation (a ticket),
       * never as a breach.
       */
      readonly specCode: string | undefined;
      /** Who names `specCode`: the spec (canaries) or the key's `expect` in monitor.yaml. */
      readonly codeSource: 'spec' | 'config';
      readonly breach: BreachKind;
      /** What the breach means, for people. */
      readonly breachDetail: string;
    };

export function expectedOutcome(expect: Expectation): Outcome {
  return expect.kind === 'success' ? 'ok' : expect.outcome;
}
