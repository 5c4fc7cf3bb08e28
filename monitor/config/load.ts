/**
 * Config text -> validated, resolved MonitorConfig, or every issue found. YAML syntax, the
 * strict schema, cross-field rules and secret resolution each add their issues; nothing
 * starts until the list is empty.
 */
import { dirname } from 'node:path';
import { ENDPOINT_IDS, type EndpointId } from '../../api/contract/index.js';
import { platformSubPath } from '../../api/contract/readings.js';
import { aliasSchema, decodeDocument, parseWith, readDocument } from '../../lib/index.js';
import { shortestIntervalMs } from './cron.js';
import { parseDuration } from './duration.js';
import { httpIssues, resolveHttp, resolveStatusPage } from './http-settings.js';
import { type RefusedTarget, crossFieldIssues } from './rules.js';
import { type ResolvedSecrets, resolveSecrets } from './salvage.js';
import {
  CANARY_NAMES,
  type CanaryName,
  DEFAULT_AVAILABILITY_PERCENT,
  type RawConfig,
  type RawKey,
  type RawTarget,
  configSchema,
  targetSchema,
} from './schema.js';
import type { SecretSources } from './secrets.js';
import { resolveTls } from './tls.js';
import type { ConfigIssue, ConfigResult, KeyExpectation, MaintenanceWindow, MonitorConfig, MonitorKey, MonitorTarget } from './types.js';

/**
 * Unset: a third of the interval, at most 10 s, so that a recheck fits between the ticks of any
 * schedule (every 30 s: 10 s; every 10 s: 3.3 s).
 */
function recheckAfterMs(raw: RawTarget): number {
  if (raw.recheckAfter === undefined) return Math.min(10_000, Math.floor(shortestIntervalMs(raw.schedule) / 3));
  return raw.recheckAfter === 'off' ? 0 : (parseDuration(raw.recheckAfter) ?? 0);
}

function resolveCanaries(raw: RawTarget['canaries']): Record<CanaryName, boolean> {
  const switches = typeof raw === 'boolean' ? {} : raw;
  const all = typeof raw === 'boolean' ? raw : true;
  return Object.fromEntries(CANARY_NAMES.map((name) => [name, switches[name] ?? all])) as Record<CanaryName, boolean>;
}

function resolveMaintenance(raw: RawTarget['maintenance']): MaintenanceWindow[] {
  return raw.map((w): MaintenanceWindow =>
    w.cron !== undefined
      ? { kind: 'cron', cron: w.cron, durationMs: parseDuration(w.duration ?? '') ?? 0, reason: w.reason }
      : { kind: 'fixed', startMs: Date.parse(w.start ?? ''), endMs: Date.parse(w.end ?? ''), reason: w.reason },
  );
}

function resolveExpect(raw: RawKey['expect']): MonitorKey['expect'] {
  const entries = Object.entries(raw ?? {}).flatMap(([id, value]): Array<[string, KeyExpectation]> => {
    if (value === undefined || value === 'read') return [];
    return [[id, { kind: 'refused', code: value === 'refused' ? undefined : value }]];
  });
  return Object.fromEntries(entries);
}

/** Percent per endpoint -> ratio for every endpoint, `default` (or ours) filling the gaps. */
function resolveAvailability(raw: RawTarget['availability']): Record<EndpointId, number> {
  const fallback = raw?.default ?? DEFAULT_AVAILABILITY_PERCENT;
  // Rounded: 99.9 / 100 is 0.9990000000000001 in floating point, and the gauge would show it.
  const ratio = (percent: number): number => Number((percent / 100).toFixed(9));
  return Object.fromEntries(ENDPOINT_IDS.map((id) => [id, ratio(raw?.[id] ?? fallback)])) as Record<EndpointId, number>;
}

function resolveTarget(
  raw: RawTarget,
  index: number,
  secrets: ResolvedSecrets,
  sources: SecretSources,
  issues: ConfigIssue[],
): MonitorTarget {
  const keys = raw.keys.flatMap((k, i): MonitorKey[] => {
    const secret = secrets.keys.get(`targets[${index}].keys[${i}]`);
    if (!secret) return [];
    const tenants = k.kind === 'tenant' ? [k.tenant ?? ''] : [...new Set(k.tenants ?? [])];
    const { alias, kind, tenant, auth } = k;
    return [{ alias, kind, tenant, tenants, auth, key: secret.key, origin: secret.origin, expect: resolveExpect(k.expect) }];
  });
  const tls = resolveTls(raw.tls, `targets[${index}].tls`, sources);
  if (!tls.ok) issues.push(tls.issue);
  const sloMs = Object.fromEntries(
    Object.entries(raw.slo ?? {}).flatMap(([id, d]) => (d === undefined ? [] : [[id, parseDuration(d) ?? 0]])),
  );
  return {
    name: raw.name,
    baseUrl: raw.baseUrl,
    schedule: raw.schedule,
    intervalMs: shortestIntervalMs(raw.schedule),
    timeoutMs: parseDuration(raw.timeout) ?? 0,
    maxBodyBytes: raw.maxBodyBytes,
    sloMs,
    availability: resolveAvailability(raw.availability),
    failureThreshold: raw.failureThreshold,
    recheckAfterMs: recheckAfterMs(raw),
    maintenance: resolveMaintenance(raw.maintenance),
    canaries: resolveCanaries(raw.canaries),
    keys,
    platformPaths: [...new Set(raw.platformPaths.map((p) => (platformSubPath(p) as { sub: string }).sub))],
    indexAccess: raw.indexAccess,
    tls: tls.ok ? tls.tls : undefined,
    proxy: raw.proxy,
  };
}

/** Shape problems, plus every secret problem not already reported at the same path. */
function refused(issues: readonly ConfigIssue[], secrets: ResolvedSecrets): ConfigResult {
  const seen = new Set(issues.map((i) => i.path));
  return { ok: false, issues: [...issues, ...secrets.issues.filter((issue) => !seen.has(issue.path))] };
}

/**
 * On a file the schema refused, each target that passes it alone, so that the checks across its
 * fields (timeout against schedule, duplicate names, base URL) still run: every problem at once.
 */
function targetsAlone(value: unknown): Array<RawTarget | RefusedTarget> {
  const targets = (value as { targets?: unknown } | null)?.targets;
  if (!Array.isArray(targets)) return [];
  // A refused target's name counts for duplicates only when the name itself is valid: a key
  // pasted there, or a control character, must not be echoed by the duplicate message.
  const nameOf = (t: unknown): unknown => (t as { name?: unknown } | null)?.name;
  return targets.map((t) => targetSchema.safeParse(t).data ?? { refused: true, name: aliasSchema.safeParse(nameOf(t)).data });
}

/** Validates an already-decoded value (YAML or built in memory) and resolves its secrets. */
export function parseConfigValue(value: unknown, sources: SecretSources): ConfigResult {
  const secrets = resolveSecrets(value, sources);
  const parsed = parseWith(configSchema, value ?? {});
  if (!parsed.ok) return refused([...parsed.issues, ...crossFieldIssues({ targets: targetsAlone(value) })], secrets);
  const raw: RawConfig = parsed.value;
  const cross = [...crossFieldIssues(raw), ...httpIssues(raw.http)];
  if (cross.length > 0) return refused(cross, secrets);
  const issues: ConfigIssue[] = [...secrets.issues];
  const targets = raw.targets.map((t, i) => resolveTarget(t, i, secrets, sources, issues));
  const http = resolveHttp(raw.http, secrets.tokens);
  if (issues.length > 0) return { ok: false, issues };
  const config: MonitorConfig = {
    concurrency: raw.concurrency,
    maxRateLimitHoldMs: parseDuration(raw.maxRateLimitHold),
    historyPerProbe: raw.historyPerProbe,
    metrics: { perKeyOutcomes: raw.metrics.perKeyOutcomes },
    targets,
    http,
    statusPage: resolveStatusPage(raw.statusPage),
  };
  return { ok: true, config };
}

export function parseConfigText(text: string, sources: SecretSources): ConfigResult {
  const decoded = decodeDocument(text, 'config.yaml');
  return decoded.ok ? parseConfigValue(decoded.value, sources) : decoded;
}

export function loadConfigFile(file: string, env: NodeJS.ProcessEnv): ConfigResult {
  const read = readDocument(file, 'config file');
  if (!read.ok) return read;
  return parseConfigText(read.value.text, { env, baseDir: dirname(read.value.path) });
}
