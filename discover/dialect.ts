/**
 * A discovery report (as `repairmon discover --json` printed it) as `--dialect KEY=VALUE`
 * pairs: each reading it learned, spelled as the contract names it (`READING_KEYS`). A
 * finding left unknown, or a refusal no reading names, gives no pair: that point stays open.
 * The report is read back from a file, so its shape is checked, not trusted.
 */
import { ERROR_CODES, ERROR_CODE_PATTERN } from '../api/contract/index.js';
import {
  INDEX_ACCESS_READINGS,
  RATE_LIMIT_HEADER_STYLES,
  READING_KEYS as K,
  SLUG_STYLES,
  UNAUTHORIZED_STATUSES,
} from '../api/contract/readings.js';
import type { Refusal } from './types.js';

export type DialectPairs = { readonly ok: true; readonly pairs: readonly string[] } | { readonly ok: false; readonly error: string };

function learnedReading(findings: Record<string, unknown>, name: string): unknown {
  const finding = findings[name];
  if (typeof finding !== 'object' || finding === null) return undefined;
  const { kind, reading } = finding as { kind?: unknown; reading?: unknown };
  return kind === 'learned' ? reading : undefined;
}

function refusal(value: unknown): Refusal | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { status, code } = value as { status?: unknown; code?: unknown };
  return typeof status === 'number' && (typeof code === 'string' || code === null) ? { status, code } : undefined;
}

function oneOf<T extends string | number>(value: unknown, values: readonly T[]): T | undefined {
  return values.find((v) => v === value);
}

/** The scope-refusal reading a refusal is: 404 hides, 403 with any code but the assumed one is `forbidden`. */
function scopeReading(r: Refusal | undefined): string | undefined {
  if (r?.status === 404) return 'not_found';
  if (r?.status !== 403 || r.code === null) return undefined;
  return r.code === ERROR_CODES.insufficientScope ? r.code : 'forbidden';
}

/** The platform-refusal reading a refusal is, if one names it. */
function platformReading(r: Refusal | undefined): string | undefined {
  if (r?.status === 404) return 'not_found';
  if (r?.code === ERROR_CODES.unauthorized) return 'unauthorized';
  return r?.status === 403 && r.code === ERROR_CODES.platformKeyRequired ? r.code : undefined;
}

function pairsOf(findings: Record<string, unknown>): string[] {
  const get = (name: string): unknown => learnedReading(findings, name);
  const invalid = refusal(get('invalidKey'));
  const missing = refusal(get('missingKey'));
  const paths = get('platformPaths');
  const values: [string, string | number | undefined][] = [
    [K.slug, oneOf(get('slugStyle'), SLUG_STYLES)],
    [K.index, oneOf(get('indexAccess'), INDEX_ACCESS_READINGS)],
    [K.unauthorizedStatus, invalid?.code === ERROR_CODES.unauthorized ? oneOf(invalid.status, UNAUTHORIZED_STATUSES) : undefined],
    [K.missingKey, missing?.code != null && ERROR_CODE_PATTERN.test(missing.code) ? missing.code : undefined],
    [K.scopeRefusal, scopeReading(refusal(get('scopeRefusal')))],
    [K.platformPaths, Array.isArray(paths) && paths.length > 0 && paths.every((p) => typeof p === 'string') ? paths.join('+') : undefined],
    [K.platformRefusal, platformReading(refusal(get('platformRefusal')))],
    [K.rateLimitHeaders, oneOf(get('rateLimitHeaders'), RATE_LIMIT_HEADER_STYLES)],
  ];
  return values.filter(([, v]) => v !== undefined).map(([key, v]) => `${key}=${String(v)}`);
}

/** The readings a `discover --json` report learned, as `KEY=VALUE` pairs. */
export function dialectOfReport(text: string): DialectPairs {
  let report: unknown;
  try {
    report = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `is not JSON (${(error as Error).message})` };
  }
  const { tool, findings } = (typeof report === 'object' && report !== null ? report : {}) as {
    tool?: unknown;
    findings?: unknown;
  };
  if (tool !== 'repairmon discover' || typeof findings !== 'object' || findings === null)
    return {
      ok: false,
      error: 'is not what `repairmon discover --json` prints (no "tool" and "findings")',
    };
  return { ok: true, pairs: pairsOf(findings as Record<string, unknown>) };
}
