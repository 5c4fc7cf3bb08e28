/** What each fault kind does, with an example rule: the `--help` of `repairmon sandbox` and `sandbox fault`. */
import { FAULT_KINDS, FAULT_STATUSES, type FaultKind } from './parse.js';

const KINDS: Readonly<Record<FaultKind, { readonly meaning: string; readonly example: string }>> = {
  latency: { meaning: 'wait MS milliseconds before answering (latencies add up)', example: 'latency:2000@/tenants/*/bikes%0.5' },
  'rate-limit-storm': {
    meaning: "429 rate_limited in the dialect's header style; Retry-After: S only when S is given",
    example: 'rate-limit-storm:2@/tenants/**%0.1',
  },
  status: { meaning: `that status (${FAULT_STATUSES.join(', ')}) with an error envelope`, example: 'status:503@/tenants/*/clients' },
  'html-502': { meaning: '502 with an nginx-style HTML page, no envelope', example: 'html-502@/docs' },
  'broken-envelope': { meaning: 'JSON that is not the envelope ({status, result})', example: 'broken-envelope@/tenants/*/repairs' },
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
};

/** The grammar, then one line per kind: what it does and an example rule. */
export function faultHelpLines(): string[] {
  return [
    'Fault spec: KIND[:ARG][@PATH_GLOB][%PROB] rules joined by ";"; PATH_GLOB relative to /api/v1 (* one segment, ** any),',
    '  none = every path; PROB 0-1 (default 1); latencies add up, of the other rules the first that fires wins. Kinds:',
    ...FAULT_KINDS.map((kind) => `  ${kind.padEnd(19)} ${KINDS[kind].meaning}; e.g. ${KINDS[kind].example}`),
  ];
}
