/** What a probe expects back: the outcome that counts as success, and why. */

export const OUTCOMES = [
  'ok',
  'timeout',
  'connection_error',
  'tls_error',
  'unauthorized',
  'tenant_key_tenant_mismatch',
  'forbidden',
  'rate_limited',
  'server_error',
  'unexpected_status',
  'invalid_envelope',
  'assertion_failed',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

export type Expectation =
  /** A read that must succeed; `list` endpoints report their item count. */
  | { readonly kind: 'success'; readonly list: boolean }
  /**
   * A canary that must be refused. Any refusal (a 401, 403 or 404 answer) passes: what a
   * server refuses with is mostly not shown by the spec. Data coming back instead is an
   * assertion failure (an authorization or tenant-isolation breach), never a pass.
   */
  | {
      readonly kind: 'refusal';
      /** The outcome the spec's own wording leads to, shown as what was expected. */
      readonly outcome: 'unauthorized' | 'tenant_key_tenant_mismatch' | 'forbidden';
      /**
       * The error code the spec names for this refusal, where it names one. A refusal with
       * another code still passes, reported as a deviation (a ticket), never as a breach.
       */
      readonly specCode: string | undefined;
      /** Label-safe name of the breach data coming back would mean. */
      readonly breach: 'tenant_isolation_breach' | 'authorization_breach';
      /** What the breach means, for people. */
      readonly breachDetail: string;
    };

export function expectedOutcome(expect: Expectation): Outcome {
  return expect.kind === 'success' ? 'ok' : expect.outcome;
}
