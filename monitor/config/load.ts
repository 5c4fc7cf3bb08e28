/**
 * Config text -> validated, resolved MonitorConfig, or every issue found. YAML syntax, the
 * strict schema, cross-field rules and secret resolution each add their issues; nothing
 * starts until the list is empty.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import YAML from 'yaml';
import type { z } from 'zod';
import { shortestIntervalMs } from './cron.js';
import { parseDuration } from './duration.js';
import { crossFieldIssues } from './rules.js';
import { CANARY_NAMES, type CanaryName, type RawConfig, type RawTarget, configSchema } from './schema.js';
import { type SecretSources, resolveSecret } from './secrets.js';
import { resolveTls } from './tls.js';
import type { ConfigIssue, ConfigResult, MaintenanceWindow, MonitorConfig, MonitorKey, MonitorTarget } from './types.js';

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

function join(base: string, key: string): string {
  return base === '' ? key : `${base}.${key}`;
}

export function issuesFromZod(error: z.ZodError): ConfigIssue[] {
  return error.issues.flatMap((issue): ConfigIssue[] => {
    const path = formatPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: join(path, key), message: 'unknown key' }));
    }
    if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) {
      return [{ path, message: 'is required' }];
    }
    return [{ path, message: issue.message }];
  });
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

function resolveTarget(raw: RawTarget, index: number, sources: SecretSources, issues: ConfigIssue[]): MonitorTarget {
  const keys: MonitorKey[] = [];
  raw.keys.forEach((k, i) => {
    const secret = resolveSecret(k, `targets[${index}].keys[${i}]`, sources);
    if (!secret.ok) {
      issues.push(secret.issue);
      return;
    }
    const tenants = k.kind === 'tenant' ? [k.tenant ?? ''] : [...new Set(k.tenants ?? [])];
    keys.push({ alias: k.alias, kind: k.kind, tenant: k.tenant, tenants, auth: k.auth, key: secret.key });
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
    maintenance: resolveMaintenance(raw.maintenance),
    canaries: resolveCanaries(raw.canaries),
    keys,
    tls: tls.ok ? tls.tls : undefined,
  };
}

/** Validates an already-decoded value (YAML or built in memory) and resolves its secrets. */
export function parseConfigValue(value: unknown, sources: SecretSources): ConfigResult {
  const parsed = configSchema.safeParse(value ?? {});
  if (!parsed.success) return { ok: false, issues: issuesFromZod(parsed.error) };
  const raw: RawConfig = parsed.data;
  const issues = crossFieldIssues(raw);
  if (issues.length > 0) return { ok: false, issues };
  const targets = raw.targets.map((t, i) => resolveTarget(t, i, sources, issues));
  if (issues.length > 0) return { ok: false, issues };
  const config: MonitorConfig = { concurrency: raw.concurrency, historyPerProbe: raw.historyPerProbe, targets };
  return { ok: true, config };
}

export function parseConfigText(text: string, sources: SecretSources): ConfigResult {
  const doc = YAML.parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return { ok: false, issues: doc.errors.map((e) => ({ path: `line ${e.linePos?.[0]?.line ?? '?'}`, message: (e.message.split('\n')[0] ?? e.message).replace(/:$/, '') })) };
  }
  return parseConfigValue(doc.toJS(), sources);
}

export function loadConfigFile(file: string, env: NodeJS.ProcessEnv): ConfigResult {
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return { ok: false, issues: [{ path: '', message: `cannot read config file ${path} (${typeof code === 'string' ? code : 'read error'})` }] };
  }
  return parseConfigText(text, { env, baseDir: dirname(path) });
}
