/**
 * The fault spec: rules separated by `;`, each `KIND[:ARG][@PATH_GLOB][%PROB]`, e.g.
 * `latency:2000@/tenants/* /bikes%0.5;rate-limit-storm:2;reset@/docs` (without the space).
 * PATH_GLOB is relative to /api/v1: `*` is one segment, `**` any number of them. Also which
 * rules fire for one request, and what each kind does (`--help`).
 */
import { type PathGlob, compileGlob } from './glob.js';

export const FAULT_STATUSES = [500, 502, 503] as const;
const MAX_LATENCY_MS = 600_000;
const MAX_OVERSIZED_BYTES = 256 * 1024 * 1024;

/** Every fault kind, in help order: what it does and an example rule. */
const KINDS = {
  latency: { meaning: 'wait MS milliseconds before answering (latencies add up)', example: 'latency:2000@/tenants/*/bikes%0.5' },
  'rate-limit-storm': {
    meaning: "429 rate_limited in the dialect's header style; Retry-After: S only when S is given",
    example: 'rate-limit-storm:2@/tenants/**%0.1',
  },
  status: { meaning: `that status (${FAULT_STATUSES.join(', ')}) with an error envelope`, example: 'status:503@/tenants/*/clients' },
  'html-502': { meaning: '502 with an nginx-style HTML page, no envelope', example: 'html-502@/docs' },
  'broken-envelope': { meaning: 'JSON that is not the envelope ({status, result})', example: 'broken-envelope@/tenants/*/repairs' },
  'plain-error-bodies': {
    meaning: 'an error answer as its status text in text/plain, no envelope (breaks spec §1: what a bare proxy sends)',
    example: 'plain-error-bodies@/tenants/**',
  },
  'invalid-json': { meaning: 'the envelope cut off after 20 bytes', example: 'invalid-json%0.2' },
  'ok-without-data': { meaning: '200 {"ok":true} without data', example: 'ok-without-data@/' },
  'error-without-code': { meaning: 'an error envelope without error.code', example: 'error-without-code@/tenants/*/logs' },
  reset: { meaning: 'destroy the connection, no answer', example: 'reset%0.1' },
  stall: { meaning: 'headers and half a body, then nothing (until the sandbox closes)', example: 'stall@/tenants/*/bikes' },
  oversized: { meaning: 'a valid envelope padded to at least BYTES', example: 'oversized:2000000@/tenants/*/logs' },
  'isolation-breach': {
    meaning: "tenant keys read other tenants' data (the monitor's canaries must catch it)",
    example: 'isolation-breach',
  },
  redirect: { meaning: '302 to URL', example: 'redirect:http://127.0.0.1:9/@/docs' },
} satisfies Record<string, { readonly meaning: string; readonly example: string }>;
export type FaultKind = keyof typeof KINDS;
export const FAULT_KINDS = Object.keys(KINDS) as readonly FaultKind[];

export type FaultAction =
  | { readonly kind: 'latency'; readonly ms: number }
  | { readonly kind: 'rate-limit-storm'; readonly retryAfterSeconds: number | undefined }
  | { readonly kind: 'status'; readonly status: (typeof FAULT_STATUSES)[number] }
  | { readonly kind: 'oversized'; readonly bytes: number }
  | { readonly kind: 'redirect'; readonly url: string }
  | { readonly [K in SimpleFaultKind]: { readonly kind: K } }[SimpleFaultKind];

type SimpleFaultKind = Exclude<FaultKind, 'latency' | 'rate-limit-storm' | 'status' | 'oversized' | 'redirect'>;

export interface FaultRule {
  readonly action: FaultAction;
  /** Undefined: every path, including ones outside /api/v1. */
  readonly glob: string | undefined;
  readonly pattern: PathGlob | undefined;
  readonly probability: number;
  readonly source: string;
}

export type FaultSpecParse = { readonly ok: true; readonly rules: readonly FaultRule[] } | { readonly ok: false; readonly error: string };

type ActionParse = { readonly ok: true; readonly action: FaultAction } | { readonly ok: false; readonly error: string };

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
  if (!Object.hasOwn(KINDS, kind)) return { ok: false, error: `unknown fault kind "${kind}" (known: ${FAULT_KINDS.join(', ')})` };
  const action = parseAction(kind as FaultKind, arg);
  if (!action.ok) return action;
  return {
    ok: true,
    rule: { action: action.action, glob, pattern: glob === undefined ? undefined : compileGlob(glob), probability, source },
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

export type ResponseFault = Exclude<FaultAction, { kind: 'latency' | 'isolation-breach' }>;

/**
 * Which faults fire for one request, its path below /api/v1 (`/` for the base itself) if it is
 * below it. Latencies add up, `isolation-breach` changes the access decision, and the first
 * rule that replaces or bends the response wins; `fired` names them for the request log.
 */
export interface FaultPlan {
  readonly latencyMs: number;
  readonly breach: boolean;
  readonly response: ResponseFault | undefined;
  readonly fired: readonly string[];
}

/** The plan of a sandbox with no fault set (the usual case), shared: nothing to match or roll. */
const NO_FAULTS: FaultPlan = { latencyMs: 0, breach: false, response: undefined, fired: [] };

export function planFaults(rules: readonly FaultRule[], relativePath: string | undefined, random: () => number): FaultPlan {
  if (rules.length === 0) return NO_FAULTS;
  let latencyMs = 0;
  let breach = false;
  let response: ResponseFault | undefined;
  const fired: string[] = [];
  for (const rule of rules) {
    if (rule.pattern && (relativePath === undefined || !rule.pattern.test(relativePath))) continue;
    if (rule.probability < 1 && (rule.probability <= 0 || random() >= rule.probability)) continue;
    const { action } = rule;
    if (action.kind === 'latency') latencyMs += action.ms;
    else if (action.kind === 'isolation-breach') breach = true;
    else if (response === undefined) response = action;
    else continue;
    fired.push(rule.source);
  }
  return { latencyMs, breach, response, fired };
}

/** The grammar, then one line per kind: what it does and an example rule. */
export function faultHelpLines(): string[] {
  return [
    'Fault spec: KIND[:ARG][@PATH_GLOB][%PROB] rules joined by ";"; PATH_GLOB relative to /api/v1 (* one segment, ** any), none = every path; PROB 0-1 (default 1); latencies add up, of the other rules the first that fires wins. Kinds:',
    ...FAULT_KINDS.map((kind) => `  ${kind.padEnd(19)} ${KINDS[kind].meaning}; e.g. ${KINDS[kind].example}`),
  ];
}
