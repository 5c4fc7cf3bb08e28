/**
 * A monitor config built in memory from a running sandbox's demo keys: what `repairmon demo`
 * (and the tests) probe. Keys go straight into ApiKey holders; nothing is written or printed.
 */
import { ApiKey } from '../api/client/index.js';
import { type AuthScheme, type KeyKind, type Scope, TENANT_RESOURCES, scopeForResource } from '../api/contract/index.js';
import { shortestIntervalMs } from './config/cron.js';
import { CANARY_NAMES, type CanaryName, DEFAULT_PROBE_BODY_LIMIT } from './config/schema.js';
import type { MonitorConfig, MonitorKey, MonitorTarget } from './config/types.js';

export interface SandboxKeySource {
  readonly alias: string;
  readonly kind: KeyKind;
  readonly tenant?: string | undefined;
  readonly revoked: boolean;
  /** When a source does not list scopes, the key is taken to cover every resource. */
  readonly scopes?: readonly Scope[] | undefined;
  readonly key: string;
}

export interface SandboxLike {
  readonly baseUrl: string;
  readonly keys: readonly SandboxKeySource[];
  readonly tenants: readonly string[];
}

export interface DemoConfigOptions {
  readonly targetName?: string;
  readonly schedule?: string;
  readonly timeoutMs?: number;
  /** Aliases to probe; by default every key that is neither revoked nor scope-limited. */
  readonly aliases?: readonly string[];
  readonly canaries?: Partial<Record<CanaryName, boolean>>;
  readonly concurrency?: number;
  readonly sloMs?: MonitorTarget['sloMs'];
  readonly maxBodyBytes?: number;
  /** Alternate the auth scheme between keys, so both header forms are exercised. */
  readonly mixAuth?: boolean;
}

/** Demo keys built to fail (revoked, or a scope missing a resource) are left out by default. */
function probedByDefault(key: SandboxKeySource): boolean {
  return !key.revoked && TENANT_RESOURCES.every((r) => key.scopes?.includes(scopeForResource(r)) ?? true);
}

export function demoConfig(sandbox: SandboxLike, options: DemoConfigOptions = {}): MonitorConfig {
  const wanted = options.aliases;
  const sources = sandbox.keys.filter((k) => (wanted ? wanted.includes(k.alias) : probedByDefault(k)));
  const keys = sources.map((k, i): MonitorKey => {
    const auth: AuthScheme = options.mixAuth !== false && i % 2 === 1 ? 'x-api-key' : 'bearer';
    const tenants = k.kind === 'tenant' ? [k.tenant ?? ''] : [...sandbox.tenants];
    return { alias: k.alias, kind: k.kind, tenant: k.kind === 'tenant' ? k.tenant : undefined, tenants, auth, key: new ApiKey(k.key, k.alias) };
  });
  const schedule = options.schedule ?? '*/15 * * * * *';
  const canaries = Object.fromEntries(CANARY_NAMES.map((n) => [n, options.canaries?.[n] ?? true])) as Record<CanaryName, boolean>;
  const target: MonitorTarget = {
    name: options.targetName ?? 'sandbox',
    baseUrl: sandbox.baseUrl,
    schedule,
    intervalMs: shortestIntervalMs(schedule),
    timeoutMs: options.timeoutMs ?? 5_000,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_PROBE_BODY_LIMIT,
    sloMs: options.sloMs ?? { index: 250, docs: 250, clients: 500, bikes: 500, repairs: 500, logs: 500, platform: 500 },
    maintenance: [],
    canaries,
    keys,
  };
  return { concurrency: options.concurrency ?? 8, historyPerProbe: 60, targets: [target] };
}
