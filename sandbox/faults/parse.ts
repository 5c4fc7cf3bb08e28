/**
 * The fault spec: rules separated by `;`, each `KIND[:ARG][@PATH_GLOB][%PROB]`, e.g.
 * `latency:2000@/tenants/* /bikes%0.5;rate-limit-storm:2;reset@/docs` (without the space).
 * PATH_GLOB is relative to /api/v1: `*` is one segment, `**` any number of them.
 */

export const FAULT_KINDS = [
  'latency',
  'rate-limit-storm',
  'status',
  'html-502',
  'broken-envelope',
  'invalid-json',
  'ok-without-data',
  'error-without-code',
  'reset',
  'stall',
  'oversized',
  'isolation-breach',
  'redirect',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const FAULT_STATUSES = [500, 502, 503] as const;
export const MAX_LATENCY_MS = 600_000;
export const MAX_OVERSIZED_BYTES = 256 * 1024 * 1024;

export type FaultAction =
  | { readonly kind: 'latency'; readonly ms: number }
  | { readonly kind: 'rate-limit-storm'; readonly retryAfterSeconds: number | undefined }
  | { readonly kind: 'status'; readonly status: (typeof FAULT_STATUSES)[number] }
  | { readonly kind: 'oversized'; readonly bytes: number }
  | { readonly kind: 'redirect'; readonly url: string }
  | { readonly [K in SimpleFaultKind]: { readonly kind: K } }[SimpleFaultKind];

type SimpleFaultKind =
  'html-502' | 'broken-envelope' | 'invalid-json' | 'ok-without-data' | 'error-without-code' | 'reset' | 'stall' | 'isolation-breach';

export interface FaultRule {
  readonly action: FaultAction;
  /** Undefined: every path, including ones outside /api/v1. */
  readonly glob: string | undefined;
  readonly pattern: RegExp | undefined;
  readonly probability: number;
  readonly source: string;
}

export type FaultSpecParse = { readonly ok: true; readonly rules: readonly FaultRule[] } | { readonly ok: false; readonly error: string };

type ActionParse = { readonly ok: true; readonly action: FaultAction } | { readonly ok: false; readonly error: string };

function isFaultKind(value: string): value is FaultKind {
  return (FAULT_KINDS as readonly string[]).includes(value);
}

function wholeNumber(arg: string | undefined, min: number, max: number): number | undefined {
  if (arg === undefined || !/^\d+$/.test(arg)) return undefined;
  const value = Number(arg);
  return value >= min && value <= max ? value : undefined;
}

function parseAction(kind: FaultKind, arg: string | undefined): ActionParse {
  const needs = (what: string): ActionParse => ({
    ok: false,
    error: `fault "${kind}" needs ${what}, got ${arg === undefined ? 'none' : `"${arg}"`}`,
  });
  switch (kind) {
    case 'latency': {
      const ms = wholeNumber(arg, 0, MAX_LATENCY_MS);
      return ms === undefined ? needs(`milliseconds 0-${MAX_LATENCY_MS} (latency:2000)`) : { ok: true, action: { kind, ms } };
    }
    case 'rate-limit-storm': {
      if (arg === undefined) return { ok: true, action: { kind, retryAfterSeconds: undefined } };
      const seconds = wholeNumber(arg, 0, 86_400);
      return seconds === undefined
        ? needs('Retry-After seconds 0-86400 or nothing')
        : { ok: true, action: { kind, retryAfterSeconds: seconds } };
    }
    case 'status': {
      const status = FAULT_STATUSES.find((s) => String(s) === arg);
      return status === undefined ? needs(`one of ${FAULT_STATUSES.join(', ')}`) : { ok: true, action: { kind, status } };
    }
    case 'oversized': {
      const bytes = wholeNumber(arg, 1, MAX_OVERSIZED_BYTES);
      return bytes === undefined ? needs(`a byte count 1-${MAX_OVERSIZED_BYTES}`) : { ok: true, action: { kind, bytes } };
    }
    case 'redirect': {
      const url = arg === undefined ? undefined : URL.parse(arg);
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return needs('an http(s) URL');
      return { ok: true, action: { kind, url: url.href } };
    }
    default:
      return arg === undefined
        ? { ok: true, action: { kind } as FaultAction }
        : { ok: false, error: `fault "${kind}" takes no argument, got "${arg}"` };
  }
}

function globToRegExp(glob: string): RegExp {
  const body = glob
    .replace(/\/+$/, '')
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body === '' ? '/' : body}/*$`);
}

function parseRule(source: string): { ok: true; rule: FaultRule } | { ok: false; error: string } {
  let rest = source;
  let probability = 1;
  const prob = /%([^%@]*)$/.exec(rest);
  if (prob) {
    probability = Number(prob[1]);
    if (prob[1] === '' || !Number.isFinite(probability) || probability < 0 || probability > 1) {
      return { ok: false, error: `probability "${prob[1] ?? ''}" in fault rule "${source}" must be a number from 0 to 1` };
    }
    rest = rest.slice(0, prob.index);
  }
  let glob: string | undefined;
  const at = /@(\/[^@]*)$/.exec(rest);
  if (at) {
    glob = at[1];
    rest = rest.slice(0, at.index);
  } else if (rest.includes('@') && !rest.startsWith('redirect:')) {
    return { ok: false, error: `path glob in fault rule "${source}" must start with "/" (relative to /api/v1)` };
  }
  const colon = rest.indexOf(':');
  const kind = colon === -1 ? rest : rest.slice(0, colon);
  const arg = colon === -1 ? undefined : rest.slice(colon + 1);
  if (!isFaultKind(kind)) return { ok: false, error: `unknown fault kind "${kind}" (known: ${FAULT_KINDS.join(', ')})` };
  const action = parseAction(kind, arg);
  if (!action.ok) return action;
  return {
    ok: true,
    rule: { action: action.action, glob, pattern: glob === undefined ? undefined : globToRegExp(glob), probability, source },
  };
}

export function parseFaultSpec(spec: string): FaultSpecParse {
  const rules: FaultRule[] = [];
  for (const raw of spec.split(';')) {
    const source = raw.trim();
    if (source === '') continue;
    const parsed = parseRule(source);
    if (!parsed.ok) return parsed;
    rules.push(parsed.rule);
  }
  return { ok: true, rules };
}
