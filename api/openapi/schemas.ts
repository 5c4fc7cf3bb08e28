/**
 * The envelope (spec §2) as JSON Schema 2020-12, the error codes the readings send, and the
 * response header fields. Shapes the spec leaves open (items, `data` of the index and /platform/)
 * are any JSON value; extra fields are allowed, since the spec does not forbid them.
 */
import { ERROR_CODES, RATE_LIMIT_HEADERS as H, REQUEST_ID_HEADER } from '../contract/index.js';
import { type RateLimitHeaderStyle } from '../contract/readings.js';
import {
  ERROR_STATUS,
  FIXED_ERROR_CODES,
  type FixedErrorCode,
  REFUSALS,
  type Readings,
  type Refusal,
  rateLimitHeaderNames,
  refusalAnswer,
} from '../contract/server/index.js';
import { type JsonObject, ref } from './types.js';

/** When each refusal is sent; its status and code come from the readings. */
export const REFUSAL_WHEN: Readonly<Record<Refusal, string>> = {
  missing_key: 'no key was presented',
  invalid_key: 'the key is unknown, revoked or malformed (spec §5.6)',
  tenant_mismatch: "a tenant key is used on another tenant's path (spec §4.1, §5.5)",
  scope: "the key's scope does not cover the resource (spec §5.4)",
  platform_refused: 'a tenant key is used on /platform/* (spec §4.2)',
};

export const FIXED_WHEN: Readonly<Record<FixedErrorCode, string>> = {
  rate_limited: 'the key sent too many requests (spec §8)',
  not_found: 'no such path, tenant or /platform/ sub-path',
  method_not_allowed: 'a method other than GET (spec §1: only reads are shown)',
  invalid_tenant_slug: "`{tenant}` is not a slug in the API's style",
  bad_request: 'the request is not valid HTTP',
  internal_error: 'the server failed',
};

/** The two codes the spec itself names; every other one is an assumption. */
const SPEC_CODES: readonly string[] = [ERROR_CODES.unauthorized, ERROR_CODES.tenantMismatch];

interface CodeRow {
  readonly code: string;
  readonly status: number;
  readonly when: string;
}

/** Every (code, status) the readings send, with when, one row each (refusals first). */
function codeTable(readings: Readings): CodeRow[] {
  const rows: CodeRow[] = [];
  const add = (code: string, status: number, when: string): void => {
    const same = rows.findIndex((r) => r.code === code && r.status === status);
    if (same === -1) rows.push({ code, status, when });
    else rows[same] = { code, status, when: `${rows[same]?.when ?? ''}; or ${when}` };
  };
  for (const refusal of REFUSALS) {
    const answer = refusalAnswer(refusal, readings);
    add(answer.code, answer.status, REFUSAL_WHEN[refusal]);
  }
  for (const code of FIXED_ERROR_CODES) add(code, ERROR_STATUS[code], FIXED_WHEN[code]);
  return rows;
}

function errorCodeSchema(readings: Readings): JsonObject {
  const rows = codeTable(readings);
  const table = rows.map(
    (r) =>
      `| \`${r.code}\` | ${r.status} | ${r.when} | ${SPEC_CODES.includes(r.code) ? 'spec' : 'assumed'} |`,
  );
  return {
    type: 'string',
    minLength: 1,
    description: [
      'Machine-readable error code: classify by status plus this code, never by the message (spec §7).',
      'Codes beyond `unauthorized` and `tenant_key_tenant_mismatch` are not shown by the spec: a client keeps an unknown code as sent.',
      '',
      '| code | status | when | source |',
      '|---|---|---|---|',
      ...table,
    ].join('\n'),
    examples: [...new Set(rows.map((r) => r.code))],
  };
}

export function envelopeSchemas(readings: Readings): Record<string, JsonObject> {
  return {
    SuccessEnvelope: {
      type: 'object',
      description: 'A successful answer (spec §2 rule 1).',
      required: ['ok', 'data'],
      properties: {
        ok: { const: true },
        data: { description: 'The payload: any JSON value (its shape is not shown by the spec).' },
      },
    },
    ListEnvelope: {
      type: 'object',
      description:
        'A successful answer of a list endpoint: `data` is an array, possibly empty (spec §2 rule 1).',
      required: ['ok', 'data'],
      properties: {
        ok: { const: true },
        data: {
          type: 'array',
          description: 'The fields of the records are not shown by the spec.',
          items: {},
        },
      },
    },
    ErrorEnvelope: {
      type: 'object',
      description: 'An error answer (spec §2 rule 2, §7).',
      required: ['ok', 'error'],
      properties: { ok: { const: false }, error: ref('schemas', 'ErrorBody') },
    },
    ErrorBody: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: ref('schemas', 'ErrorCode'),
        message: {
          type: 'string',
          description: 'Human-readable explanation, in Polish (spec §2): show it, never parse it.',
        },
      },
    },
    ErrorCode: errorCodeSchema(readings),
  };
}

const DIGITS = { type: 'string', pattern: '^[0-9]+$' };

function retryAfter(style: RateLimitHeaderStyle): JsonObject {
  if (style === 'retry-after-date')
    return {
      description: 'When to retry, as an HTTP date (RFC 9110 §10.2.3).',
      schema: { type: 'string' },
    };
  return { description: 'Seconds to wait before retrying (RFC 9110 §10.2.3).', schema: DIGITS };
}

function xReset(style: RateLimitHeaderStyle): string {
  return style === 'x-ratelimit-epoch'
    ? 'When the window resets, in seconds since the epoch.'
    : 'Seconds until the window resets.';
}

/** Every header field a response may carry under the readings (all optional), by name: the style's rate-limit fields only. */
export function headerComponents(readings: Readings): Record<string, JsonObject> {
  const style = readings.rateLimitHeaders;
  const rate: Record<string, JsonObject> = {
    [H.retryAfter]: retryAfter(style),
    [H.limit]: { description: 'Requests allowed in the current window.', schema: DIGITS },
    [H.remaining]: { description: 'Requests left in the current window.', schema: DIGITS },
    [H.reset]: { description: 'Seconds until the window resets.', schema: DIGITS },
    [H.field]: {
      description: 'IETF RateLimit field: `"policy";r=REMAINING;t=SECONDS`.',
      schema: { type: 'string' },
    },
    [H.policy]: {
      description: 'IETF RateLimit-Policy field: `"policy";q=QUOTA;w=WINDOW_SECONDS`.',
      schema: { type: 'string' },
    },
    [H.xLimit]: { description: 'Requests allowed in the current window.', schema: DIGITS },
    [H.xRemaining]: { description: 'Requests left in the current window.', schema: DIGITS },
    [H.xReset]: { description: xReset(style), schema: DIGITS },
  };
  return {
    [REQUEST_ID_HEADER]: {
      description:
        'ASSUMPTION (not shown by the spec): the id of this request on the server; quote it to support.',
      schema: { type: 'string' },
    },
    link: {
      description:
        'Pagination (not shown by the spec): `<URL>; rel="next"` when there is a next page; without it the list is complete.',
      schema: { type: 'string' },
    },
    ...Object.fromEntries(
      rateLimitHeaderNames(style).map((name) => [
        name,
        rate[name] ?? { schema: { type: 'string' } },
      ]),
    ),
  };
}
