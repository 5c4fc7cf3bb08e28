/**
 * Property: whatever reading of the spec's open points a faithful API follows (a random sandbox
 * dialect), the generated client and the monitor classify each answer alike: the client's error
 * class is the monitor's outcome, for good keys, refusals of every kind, and 429s in every
 * rate-limit header style.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLIENT_MONITOR_AGREEMENT } from '../helpers/agreement.js';
import { createClient, isApiError } from '../../api/client/index.js';
import { ApiKey, sendAttempt } from '../../api/client/single-attempt.js';
import { type EndpointId, endpointPath, endpointSpec } from '../../api/contract/index.js';
import { classifyOutcome } from '../../monitor/probe/outcome.js';
import { ERROR_BODIES, PLATFORM_REFUSALS, RATE_LIMIT_HEADER_STYLES, SCOPE_REFUSALS, SLUG_STYLES, UNAUTHORIZED_STATUSES } from '../../api/contract/readings.js';
import { INDEX_ACCESS_VALUES } from '../../sandbox/dialect/index.js';
import { type RunningSandbox, startSandbox } from '../../sandbox/index.js';

const AGREEMENT = CLIENT_MONITOR_AGREEMENT;

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
    'error-bodies': fc.constantFrom(...ERROR_BODIES),
  })
  .map((choices) => `reference,${Object.entries(choices).map(([k, v]) => `${k}=${v}`).join(',')}`);

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
  if (call.endpoint === 'platform') return endpointPath('platform', { platformSub: sandbox.platformPaths[0] });
  if (call.tenant === undefined) return endpointPath(call.endpoint);
  const tenant = sandbox.dialect.slug === 'snake' ? call.tenant.replace(/-/g, '_') : call.tenant;
  return endpointPath(call.endpoint, { tenant });
}

async function clientClass(sandbox: RunningSandbox, call: Call, path: string): Promise<string> {
  const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: new ApiKey(sandbox.key(call.alias).key, call.alias), maxRetries: 0 });
  try {
    if (call.endpoint === 'index') await client.index();
    else if (call.endpoint === 'platform') await client.platform.get(path.slice('/platform/'.length));
    else await client[({ clients: 'listClients', bikes: 'listBikes', repairs: 'listRepairs', logs: 'listLogs' } as const)[call.endpoint as 'clients']]({ tenant: path.split('/')[2] && decodeURIComponent(path.split('/')[2]!) });
    return 'success';
  } catch (error) {
    if (!isApiError(error)) throw error;
    return error.name;
  } finally {
    await client.close();
  }
}

async function monitorOutcome(sandbox: RunningSandbox, call: Call, path: string): Promise<string> {
  const { Agent } = await import('undici');
  const dispatcher = new Agent();
  try {
    const attempt = await sendAttempt({ dispatcher, baseUrl: sandbox.baseUrl, path, endpoint: call.endpoint, key: new ApiKey(sandbox.key(call.alias).key, call.alias), authScheme: 'bearer', timeoutMs: 5_000 });
    return classifyOutcome(attempt, { kind: 'success', list: endpointSpec(call.endpoint).list }).outcome;
  } finally {
    await dispatcher.close();
  }
}

describe('client and monitor agree under any dialect', () => {
  it('for every call a demo key can make, including 429s in the dialect\'s header style', async () => {
    await fc.assert(
      fc.asyncProperty(dialect, fc.boolean(), async (spec, storm) => {
        const sandbox = await startSandbox({ dialect: spec, ...(storm ? { faults: 'rate-limit-storm:1@/tenants/**' } : {}) });
        try {
          for (const call of CALLS) {
            const path = pathOf(sandbox, call);
            const [cls, outcome] = [await clientClass(sandbox, call, path), await monitorOutcome(sandbox, call, path)];
            expect(AGREEMENT[cls], `${spec} ${call.alias} ${path}: client ${cls}, monitor ${outcome}`).toBe(outcome);
          }
        } finally {
          await sandbox.close();
        }
      }),
      { numRuns: 20 },
    );
  }, 120_000);
});
