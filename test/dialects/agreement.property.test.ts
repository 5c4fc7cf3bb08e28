/**
 * Property: whatever reading of the spec's open points a faithful API follows (a random sandbox
 * dialect), the monitor names each answer with the contract's word for it: its outcome is
 * `answerKind(attempt)`, for good keys, refusals of every kind, and 429s in every rate-limit
 * header style. (The client's `error.kind` is held to the same `answerKind` by the client's
 * tests; both sides agree because both derive from it, not from a hand-kept table.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiKey, answerKind, sendAttempt } from '../../api/client/single-attempt.js';
import { type EndpointId, endpointPath, endpointSpec } from '../../api/contract/index.js';
import { classifyOutcome } from '../../monitor/probe/outcome.js';
import {
  PLATFORM_REFUSALS,
  RATE_LIMIT_HEADER_STYLES,
  SCOPE_REFUSALS,
  SLUG_STYLES,
  UNAUTHORIZED_STATUSES,
} from '../../api/contract/readings.js';
import { INDEX_ACCESS_VALUES } from '../../sandbox/dialect/index.js';
import { type RunningSandbox, startSandbox } from '../../sandbox/index.js';

const dialect = fc
  .record({
    slug: fc.constantFrom(...SLUG_STYLES),
    index: fc.constantFrom(...INDEX_ACCESS_VALUES),
    'unauthorized-status': fc.constantFrom(...UNAUTHORIZED_STATUSES),
    'missing-key': fc.constantFrom('unauthorized', 'missing_api_key', 'no_credentials'),
    'scope-refusal': fc.constantFrom(...SCOPE_REFUSALS),
    'platform-paths': fc.constantFrom('tenants+keys', 'admin/tenants', 'ops/tenants+ops/keys'),
    'platform-refusal': fc.constantFrom(...PLATFORM_REFUSALS),
    'rate-limit-headers': fc.constantFrom(...RATE_LIMIT_HEADER_STYLES),
  })
  .map(
    (choices) =>
      `reference,${Object.entries(choices)
        .map(([k, v]) => `${k}=${v}`)
        .join(',')}`,
  );

interface Call {
  readonly alias: string;
  readonly endpoint: EndpointId;
  /** A kebab tenant of the demo data, respelled for the dialect. */
  readonly tenant?: string;
}

/** Good reads and every kind of refusal a demo key can meet. */
const CALLS: readonly Call[] = [
  { alias: 'nowak-test', endpoint: 'clients', tenant: 'rowery-nowak' },
  { alias: 'nowak-test', endpoint: 'clients', tenant: 'serwis-kowalski' },
  { alias: 'nowak-nologs-test', endpoint: 'logs', tenant: 'rowery-nowak' },
  { alias: 'nowak-revoked-test', endpoint: 'bikes', tenant: 'rowery-nowak' },
  { alias: 'nowak-test', endpoint: 'platform' },
  { alias: 'platform-test', endpoint: 'platform' },
  { alias: 'platform-test', endpoint: 'repairs', tenant: 'cykl-gdansk' },
  { alias: 'nowak-test', endpoint: 'index' },
];

function pathOf(sandbox: RunningSandbox, call: Call): string {
  if (call.endpoint === 'platform') return endpointPath('platform', { platformSub: sandbox.dialect.platformPaths[0] });
  if (call.tenant === undefined) return endpointPath(call.endpoint);
  const tenant = sandbox.dialect.slug === 'snake' ? call.tenant.replace(/-/g, '_') : call.tenant;
  return endpointPath(call.endpoint, { tenant });
}

async function monitorAndContract(sandbox: RunningSandbox, call: Call, path: string): Promise<{ outcome: string; kind: string }> {
  const { Agent } = await import('undici');
  const dispatcher = new Agent();
  try {
    const attempt = await sendAttempt({
      dispatcher,
      baseUrl: sandbox.baseUrl,
      path,
      endpoint: call.endpoint,
      key: new ApiKey(sandbox.key(call.alias).key, call.alias),
      authScheme: 'bearer',
      timeoutMs: 5_000,
    });
    return {
      outcome: classifyOutcome(attempt, { kind: 'success', list: endpointSpec(call.endpoint).list }).outcome,
      kind: answerKind(attempt),
    };
  } finally {
    await dispatcher.close();
  }
}

describe("the monitor speaks the contract's words under any dialect", () => {
  it("for every call a demo key can make, including 429s in the dialect's header style", async () => {
    await fc.assert(
      fc.asyncProperty(dialect, fc.boolean(), async (spec, storm) => {
        const sandbox = await startSandbox({ dialect: spec, ...(storm ? { faults: 'rate-limit-storm:1@/tenants/**' } : {}) });
        try {
          for (const call of CALLS) {
            const path = pathOf(sandbox, call);
            const { outcome, kind } = await monitorAndContract(sandbox, call, path);
            expect(outcome, `${spec} ${call.alias} ${path}`).toBe(kind);
          }
        } finally {
          await sandbox.close();
        }
      }),
      { numRuns: 20 },
    );
  }, 120_000);
});
