/**
 * A monitor config built from a running sandbox's demo keys: what `repairmon demo` (and the
 * tests) probe. It is written as a user would write the YAML, with `${ENV}` references, and
 * goes through `serve`'s own parser, so the demo and the tests run what `serve` runs. The key
 * values stay in memory; nothing is written or printed.
 */
import { type AuthScheme, type KeyKind, type Scope, TENANT_RESOURCES, scopeForResource } from '../api/contract/index.js';
import { type IndexAccessReading } from '../api/contract/readings.js';
import { formatDuration } from './config/duration.js';
import { parseConfigValue } from './config/load.js';
import { CANARY_NAMES, type CanaryName, DEFAULT_PROBE_BODY_LIMIT } from './config/schema.js';
import { formatIssues } from '../lib/index.js';
import type { MonitorConfig } from './config/types.js';

/** A key without `scopes` is taken to cover every resource; `platformPaths` and `indexAccess` when known. */
export interface SandboxLike {
  readonly baseUrl: string;
  readonly keys: ReadonlyArray<{
    readonly alias: string;
    readonly kind: KeyKind;
    readonly tenant?: string | undefined;
    readonly revoked: boolean;
    readonly scopes?: readonly Scope[] | undefined;
    readonly key: string;
  }>;
  readonly tenants: readonly string[];
  readonly platformPaths?: readonly string[] | undefined;
  readonly indexAccess?: IndexAccessReading | undefined;
}

export interface DemoConfigOptions {
  readonly targetName?: string;
  readonly schedule?: string;
  readonly timeoutMs?: number;
  /** Aliases to probe; by default every key that is neither revoked nor scope-limited. */
  readonly aliases?: readonly string[];
  readonly canaries?: Partial<Record<CanaryName, boolean>>;
  readonly concurrency?: number;
  readonly maxBodyBytes?: number;
  /** Alternate the auth scheme between keys, so both header forms are exercised. */
  readonly mixAuth?: boolean;
  /** Per alias, the key's `expect` as it would be written in YAML (e.g. `{ logs: insufficient_scope }`). */
  readonly expect?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Reference each key as `secretFile: PATH` (a file written beside the config) instead of `${ENV}`. */
  readonly secretFile?: (alias: string) => string;
  /** The CA file an https sandbox's certificate chains to (`tls.caFile`). */
  readonly caFile?: string;
}

/** Demo keys built to fail (revoked, or a scope missing a resource) are left out by default. */
function probedByDefault(key: SandboxLike['keys'][number]): boolean {
  return !key.revoked && TENANT_RESOURCES.every((r) => key.scopes?.includes(scopeForResource(r)) ?? true);
}

/** The variable a demo key's `${ENV}` reference names; held in memory, never in process.env. */
const secretVariable = (index: number): string => `REPAIRMON_DEMO_KEY_${index}`;

/** The demo's config as raw data, what `serve` would read from a file (keys referenced by `${ENV}` only), and the values those references resolve to. */
export function demoRawConfig(
  sandbox: SandboxLike,
  options: DemoConfigOptions = {},
): { raw: Record<string, unknown>; env: Record<string, string> } {
  const wanted = options.aliases;
  const sources = sandbox.keys.filter((k) => (wanted ? wanted.includes(k.alias) : probedByDefault(k)));
  const env: Record<string, string> = {};
  const keys = sources.map((k, i) => {
    env[secretVariable(i)] = k.key;
    const auth: AuthScheme = options.mixAuth !== false && i % 2 === 1 ? 'x-api-key' : 'bearer';
    const assignment = k.kind === 'tenant' ? { tenant: k.tenant } : { tenants: [...sandbox.tenants] };
    const expect = options.expect?.[k.alias];
    const secret = options.secretFile ? { secretFile: options.secretFile(k.alias) } : { secret: `\${${secretVariable(i)}}` };
    return { alias: k.alias, kind: k.kind, ...assignment, auth, ...secret, ...(expect ? { expect } : {}) };
  });
  const sloMs = { index: 250, docs: 250, platform: 500, ...Object.fromEntries(TENANT_RESOURCES.map((r) => [r, 500])) };
  const target = {
    name: options.targetName ?? 'sandbox',
    baseUrl: sandbox.baseUrl,
    schedule: options.schedule ?? '*/15 * * * * *',
    timeout: formatDuration(options.timeoutMs ?? 5_000),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_PROBE_BODY_LIMIT,
    slo: Object.fromEntries(Object.entries(sloMs).map(([id, ms]) => [id, formatDuration(ms)])),
    canaries: Object.fromEntries(CANARY_NAMES.map((n) => [n, options.canaries?.[n] ?? true])),
    platformPaths: [...(sandbox.platformPaths ?? [])],
    indexAccess: sandbox.indexAccess ?? 'unknown',
    ...(options.caFile === undefined ? {} : { tls: { caFile: options.caFile } }),
    keys,
  };
  return { raw: { concurrency: options.concurrency ?? 8, historyPerProbe: 60, targets: [target] }, env };
}

/** The demo's config, through the same parser `serve` runs a config file through. */
export function demoConfig(sandbox: SandboxLike, options: DemoConfigOptions = {}): MonitorConfig {
  const { raw, env } = demoRawConfig(sandbox, options);
  const result = parseConfigValue(raw, { env, baseDir: process.cwd() });
  if (!result.ok) throw new Error(`the demo config is not valid:\n${formatIssues(result.issues)}`);
  return result.config;
}
