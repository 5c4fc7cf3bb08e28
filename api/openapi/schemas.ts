/**
 * The envelope (spec §2) as JSON Schema 2020-12, the error codes the readings send, and the
 * response header fields. Shapes the spec leaves open (items, `data` of the index and /platform/)
 * are any JSON value; extra fields are allowed, since the spec does not forbid them.
 */
import { RATE_LIMIT_HEADERS as H, REQUEST_ID_HEADER } from '../contract/index.js';
import { type RateLimitHeaderStyle } from '../contract/readings.js';
import {
  ERROR_STATUS,
  FIXED_ERROR_CODES,
  type FixedErrorCode,
  REFUSALS,
  type Refusal,
  rateLimitHeaderNames,
  refusalAnswer,
} from '../contract/server/index.js';
import { refusalReadings } from './possible.js';
import { type DocumentReadings, type JsonObject, ref } from './types.js';

/** When each refusal is sent; its status and code come from the readings. */
const REFUSAL_WHEN: Readonly<Record<Refusal, string>> = {
  missing_key: 'no key was presented',
  invalid_key: 'the key is unknown, revoked or malformed (spec §5.6)',
  tenant_mismatch: "a tenant key is used on another tenant's path (spec §4.1, §5.5)",
  scope: "the key's scope does not cover the resource (spec §5.4)",
  platform_refused: 'a tenant key is used on /platform/* (spec §4.2)',
};

/** When a refusal is sent; with the missing-key code left open, that any code may come. */
function refusalWhen(refusal: Refusal, readings: DocumentReadings): string {
  const when = REFUSAL_WHEN[refusal];
  return refusal === 'missing_key' && readings.missingKey === undefined
    ? `${when} (its code is not shown: this one, or another such as \`missing_api_key\`)`
    : when;
}

/** The refusal's status and code under every reading the document allows, with when it is sent. */
export function possibleAnswers(refusal: Refusal, readings: DocumentReadings) {
  const when = refusalWhen(refusal, readings);
  return refusalReadings(readings).map((r) => ({ ...refusalAnswer(refusal, r), when }));
}

export const FIXED_WHEN: Readonly<Record<FixedErrorCode, string>> = {
  rate_limited: 'the key sent too many requests (spec §8)',
  not_found: 'no such path, tenant or /platform/ sub-path',
  method_not_allowed: 'a method other than GET (spec §1: only reads are shown)',
  invalid_tenant_slug: "`{tenant}` is not a slug in the API's style",
  bad_request: 'the request is not valid HTTP',
  internal_error: 'the server failed',
};

/** Where a row of the code table comes from: the spec's own text, a reading, or an assumption. */
type Source = 'spec' | 'spec code, status a reading' | 'reading' | 'assumed';

function sourceOf(refusal: Refusal): Source {
  if (refusal === 'tenant_mismatch') return 'spec';
  return refusal === 'invalid_key' ? 'spec code, status a reading' : 'reading';
}

interface CodeRow {
  readonly code: string;
  readonly status: number;
  readonly when: string;
  readonly source: Source;
}

/** Every (code, status) the readings allow, with when, one row each (refusals first). */
function codeTable(readings: DocumentReadings): CodeRow[] {
  const rows: CodeRow[] = [];
  const add = (row: CodeRow): void => {
    const same = rows.findIndex((r) => r.code === row.code && r.status === row.status);
    const had = rows[same];
    if (had === undefined) rows.push(row);
    else if (!had.when.split('; or ').includes(row.when))
      rows[same] = { ...had, when: `${had.when}; or ${row.when}` };
  };
  for (const refusal of REFUSALS)
    for (const answer of possibleAnswers(refusal, readings))
      add({ ...answer, source: sourceOf(refusal) });
  for (const code of FIXED_ERROR_CODES)
    add({ code, status: ERROR_STATUS[code], when: FIXED_WHEN[code], source: 'assumed' });
  return rows;
}

function errorCodeSchema(readings: DocumentReadings): JsonObject {
  const rows = codeTable(readings);
  const table = rows.map((r) => `| \`${r.code}\` | ${r.status} | ${r.when} | ${r.source} |`);
  return {
    type: 'string',
    minLength: 1,
    description: [
      'Machine-readable error code: classify by status plus this code, never by the message (spec §7).',
      'The spec names two codes: `tenant_key_tenant_mismatch` (403) and `unauthorized` (its status not shown: 401 or 403 are the readings). Every other code is not shown: a client keeps an unknown code as sent.',
      '',
      '| code | status | when | source |',
      '|---|---|---|---|',
      ...table,
    ].join('\n'),
    examples: [...new Set(rows.map((r) => r.code))],
  };
}

export function envelopeSchemas(readings: DocumentReadings): Record<string, JsonObject> {
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

/** RFC 9110 §5.6.7: the IMF-fixdate a sender generates, `Sun, 06 Nov 1994 08:49:37 GMT`. */
const HTTP_DATE = {
  type: 'string',
  pattern:
    '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$',
};

export const RETRY_AFTER = H.retryAfter;

/** Retry-After as the style sends it; open: either form RFC 9110 §10.2.3 allows. */
function retryAfter(style: RateLimitHeaderStyle | undefined): JsonObject {
  if (style === undefined)
    return {
      description:
        'When to retry: delta-seconds or an HTTP-date (RFC 9110 §10.2.3). Whether it is sent is not shown (spec §8).',
      schema: { anyOf: [DIGITS, HTTP_DATE] },
    };
  if (style === 'retry-after-date')
    return { description: 'When to retry, as an HTTP-date (RFC 9110 §10.2.3).', schema: HTTP_DATE };
  return { description: 'Seconds to wait before retrying (RFC 9110 §10.2.3).', schema: DIGITS };
}

function xReset(style: RateLimitHeaderStyle): string {
  return style === 'x-ratelimit-epoch'
    ? 'When the window resets, in seconds since the epoch.'
    : 'Seconds until the window resets.';
}

function rateFields(style: RateLimitHeaderStyle): Record<string, JsonObject> {
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
  return Object.fromEntries(
    rateLimitHeaderNames(style).map((name) => [name, rate[name] ?? { schema: { type: 'string' } }]),
  );
}

/**
 * Every header field a response may carry (all optional), by name: with the rate-limit style
 * open only Retry-After, which RFC 9110 defines; a narrowed style's own fields otherwise.
 */
export function headerComponents(readings: DocumentReadings): Record<string, JsonObject> {
  const style = readings.rateLimitHeaders;
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
    ...(style === undefined ? { [RETRY_AFTER]: retryAfter(undefined) } : rateFields(style)),
  };
}
