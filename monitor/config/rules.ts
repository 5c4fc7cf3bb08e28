/**
 * Rules that span fields, run after the schema accepted the shape: kind vs tenant, unique
 * names, timeout below the schedule interval, one maintenance form. Pure; returns every issue.
 */
import { checkBaseUrl } from '../../api/contract/index.js';
import { shortestIntervalMs } from './cron.js';
import { formatDuration, parseDuration } from './duration.js';
import type { RawKey, RawTarget } from './schema.js';
import type { ConfigIssue } from './types.js';

function keyIssues(key: RawKey, at: string): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  if (key.kind === 'tenant') {
    if (key.tenant === undefined)
      issues.push({ path: `${at}.tenant`, message: 'a tenant key needs `tenant: <slug>`, the tenant it is assigned to' });
    if (key.tenants !== undefined)
      issues.push({ path: `${at}.tenants`, message: 'only platform keys list `tenants`; a tenant key probes its own tenant' });
  } else if (key.tenant !== undefined) {
    issues.push({
      path: `${at}.tenant`,
      message: 'a platform key is not assigned to a tenant; list the tenants to probe under `tenants: [...]`',
    });
  }
  if (key.kind === 'tenant' && key.expect?.platform !== undefined) {
    issues.push({
      path: `${at}.expect.platform`,
      message: 'a tenant key never reads /platform/ (the platform_refused canary checks its refusal); only platform keys may expect it',
    });
  }
  if ((key.secret === undefined) === (key.secretFile === undefined)) {
    issues.push({ path: at, message: 'give exactly one of `secret: ${ENV_VAR}` or `secretFile: path`' });
  }
  return issues;
}

function maintenanceIssues(target: RawTarget, at: string): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  target.maintenance.forEach((w, i) => {
    const path = `${at}.maintenance[${i}]`;
    const cronForm = w.cron !== undefined || w.duration !== undefined;
    const fixedForm = w.start !== undefined || w.end !== undefined;
    if (cronForm === fixedForm) {
      issues.push({ path, message: 'use either `cron` + `duration` or `start` + `end` (ISO 8601)' });
    } else if (cronForm && (w.cron === undefined || w.duration === undefined)) {
      issues.push({ path, message: 'a cron window needs both `cron` and `duration`' });
    } else if (fixedForm && (w.start === undefined || w.end === undefined)) {
      issues.push({ path, message: 'a fixed window needs both `start` and `end`' });
    } else if (w.start !== undefined && w.end !== undefined && Date.parse(w.end) <= Date.parse(w.start)) {
      issues.push({ path: `${path}.end`, message: '`end` must be after `start`' });
    }
  });
  return issues;
}

function baseUrlIssues(baseUrl: string, at: string): ConfigIssue[] {
  const check = checkBaseUrl(baseUrl);
  return check.ok ? [] : [{ path: `${at}.baseUrl`, message: check.reason }];
}

function targetIssues(target: RawTarget, at: string): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const intervalMs = shortestIntervalMs(target.schedule);
  const timeoutMs = parseDuration(target.timeout) ?? 0;
  if (timeoutMs >= intervalMs) {
    issues.push({
      path: `${at}.timeout`,
      message: `timeout ${target.timeout} must be below the schedule interval (${formatDuration(intervalMs)} for "${target.schedule}")`,
    });
  }
  const recheck = target.recheckAfter;
  const recheckMs = recheck === undefined || recheck === 'off' ? undefined : (parseDuration(recheck) ?? 0);
  // Below 1s, a burst of rechecks would hammer an API that is already failing; above 1h it is no
  // longer a recheck (and a timer that long would overflow).
  if (recheckMs !== undefined && (recheckMs < 1000 || recheckMs > 3_600_000))
    issues.push({ path: `${at}.recheckAfter`, message: `recheckAfter ${recheck} must be from 1s to 1h, or off` });
  if (recheckMs !== undefined && recheckMs >= intervalMs) {
    issues.push({
      path: `${at}.recheckAfter`,
      message: `recheckAfter ${target.recheckAfter} must be below the schedule interval (${formatDuration(intervalMs)} for "${target.schedule}"), or off`,
    });
  }
  const seen = new Map<string, number>();
  target.keys.forEach((key, i) => {
    const keyAt = `${at}.keys[${i}]`;
    const first = seen.get(key.alias);
    if (first !== undefined)
      issues.push({ path: `${keyAt}.alias`, message: `alias "${key.alias}" is already used by ${at}.keys[${first}]` });
    else seen.set(key.alias, i);
    issues.push(...keyIssues(key, keyAt));
  });
  issues.push(...maintenanceIssues(target, at));
  issues.push(...baseUrlIssues(target.baseUrl, at));
  if (target.tls !== undefined && !/^https:/i.test(target.baseUrl)) {
    issues.push({ path: `${at}.tls`, message: '`tls` applies only to an https baseUrl' });
  }
  return issues;
}

/** A target the schema refused (its own issues are listed already): only its name is checked. */
export type RefusedTarget = { readonly refused: true; readonly name: unknown };

export function crossFieldIssues(config: { readonly targets: ReadonlyArray<RawTarget | RefusedTarget> }): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const names = new Map<string, number>();
  config.targets.forEach((target, i) => {
    const at = `targets[${i}]`;
    if (typeof target.name !== 'string') return;
    const first = names.get(target.name);
    if (first !== undefined)
      issues.push({ path: `${at}.name`, message: `target name "${target.name}" is already used by targets[${first}]` });
    else names.set(target.name, i);
    if (!('refused' in target)) issues.push(...targetIssues(target, at));
  });
  return issues;
}
