/** The config after validation and secret resolution: what the monitor runs on. */
import type { ApiKey } from '../../api/client/index.js';
import type { AuthScheme, EndpointId, KeyKind } from '../../api/contract/index.js';
import type { IndexAccessReading } from '../../api/contract/readings.js';
import type { ConfigIssue } from '../../lib/index.js';
import type { CanaryName, ExpectableEndpoint } from './schema.js';
import type { MaintenanceWindow } from './cron.js';
import type { SecretOrigin } from './secrets.js';

/** What a key's read of one resource should get (its `expect`); `code`: the refusal's error code when named, else any refusal. */
export type KeyExpectation = { readonly kind: 'read' } | { readonly kind: 'refused'; readonly code: string | undefined };

export interface MonitorKey {
  readonly alias: string;
  readonly kind: KeyKind;
  readonly tenant: string | undefined;
  /** Tenants whose resources this key reads: its own for a tenant key, the listed ones for a platform key. */
  readonly tenants: readonly string[];
  readonly auth: AuthScheme;
  readonly key: ApiKey;
  /** Where the value came from; a reload rereads files but sees the environment of the start. */
  readonly origin?: SecretOrigin | undefined;
  /** Resources whose reads must be refused; any resource not named here (or no `expect`) must be read. */
  readonly expect?: Readonly<Partial<Record<ExpectableEndpoint, KeyExpectation>>>;
}

/** A target's own trust: the CA bundle (PEM text read from `caFile`, an absolute path) replaces Node's default CAs; `serverName` for SNI. */
export interface TargetTls {
  readonly ca: string;
  readonly caFile: string;
  readonly serverName: string | undefined;
}

export interface MonitorTarget {
  readonly name: string;
  readonly baseUrl: string;
  readonly schedule: string;
  readonly intervalMs: number;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  readonly sloMs: Readonly<Partial<Record<EndpointId, number>>>;
  /** Availability objective of reads per endpoint, as a ratio (0.995), every endpoint filled in. */
  readonly availability: Readonly<Record<EndpointId, number>>;
  /** Consecutive service-side failures of a read that make it down. */
  readonly failureThreshold: number;
  /** How long after a read's service-side failure it is probed again, short of the threshold; 0: not before the next tick. */
  readonly recheckAfterMs: number;
  readonly maintenance: readonly MaintenanceWindow[];
  readonly canaries: Readonly<Record<CanaryName, boolean>>;
  readonly keys: readonly MonitorKey[];
  /** Sub-paths below /platform/ (without the prefix) that platform keys read and tenant keys must be refused on. */
  readonly platformPaths: readonly string[];
  readonly indexAccess: IndexAccessReading;
  /** Absent: Node's default CAs and the baseUrl host. */
  readonly tls?: TargetTls | undefined;
  /** `false`: never through HTTPS_PROXY / HTTP_PROXY; absent or true: as the environment says. */
  readonly proxy?: boolean | undefined;
}

/**
 * The monitor's own HTTP surface (`http:`): `token` guards /probe, /probes(.json), the status
 * page and /-/reload (required on a non-loopback listen); `metricsToken`, when set, /metrics,
 * /-/healthy and /-/ready; at most one on-demand probe per key per `onDemandIntervalMs`.
 */
export interface HttpSettings {
  readonly token: ApiKey | undefined;
  readonly metricsToken: ApiKey | undefined;
  readonly onDemandIntervalMs: number;
}

/** Where the status page reads long-window uptime from (`statusPage:`). */
export interface StatusPageSettings {
  readonly prometheusUrl: string | undefined;
  readonly prometheusTimeoutMs: number;
}

export const DEFAULT_HTTP_SETTINGS: HttpSettings = { token: undefined, metricsToken: undefined, onDemandIntervalMs: 10_000 };
export const DEFAULT_STATUS_PAGE_SETTINGS: StatusPageSettings = { prometheusUrl: undefined, prometheusTimeoutMs: 2_000 };

export interface MonitorConfig {
  readonly concurrency: number;
  /** `maxRateLimitHold`; absent in configs built in code: RATE_LIMIT_POLICY.maxHoldMs (1 h). */
  readonly maxRateLimitHoldMs?: number | undefined;
  readonly historyPerProbe: number;
  /** `perKeyOutcomes`: outcome counters per probe instead of per target and endpoint (absent: false). */
  readonly metrics?: { readonly perKeyOutcomes: boolean };
  readonly targets: readonly MonitorTarget[];
  /** Absent in configs built in code: no tokens, the default on-demand interval. */
  readonly http?: HttpSettings | undefined;
  readonly statusPage?: StatusPageSettings | undefined;
}

export function httpSettings(config: MonitorConfig): HttpSettings {
  return config.http ?? DEFAULT_HTTP_SETTINGS;
}

export function statusPageSettings(config: MonitorConfig): StatusPageSettings {
  return config.statusPage ?? DEFAULT_STATUS_PAGE_SETTINGS;
}

export type { ConfigIssue, MaintenanceWindow };

export type ConfigResult =
  { readonly ok: true; readonly config: MonitorConfig } | { readonly ok: false; readonly issues: readonly ConfigIssue[] };

/** Every key of the config, for the logger's last-net scrubbing. */
export function configKeys(config: MonitorConfig): ApiKey[] {
  return config.targets.flatMap((t) => t.keys.map((k) => k.key));
}

/** Every secret of the config: the keys and the HTTP tokens, for scrubbing logs and pages. */
export function configSecrets(config: MonitorConfig): ApiKey[] {
  const http = httpSettings(config);
  return [...configKeys(config), ...[http.token, http.metricsToken].filter((t): t is ApiKey => t !== undefined)];
}
