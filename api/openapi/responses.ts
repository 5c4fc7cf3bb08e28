/**
 * The answers each endpoint can give under the document's readings, grouped by status as
 * OpenAPI wants: any 2XX with the success envelope, each refusal's status with its codes, 429
 * everywhere (spec §7, §8: a limit may apply to any call), any other 4XX in the envelope, and
 * 5XX. An open point contributes every status its readings allow.
 */
import { type EndpointSpec, ERROR_CODES, REQUEST_ID_HEADER } from '../contract/index.js';
import {
  ERROR_STATUS,
  type FixedErrorCode,
  RATE_LIMIT_STYLE_FIELDS,
  type Refusal,
} from '../contract/server/index.js';
import { indexReading } from './possible.js';
import { FIXED_WHEN, RETRY_AFTER, possibleAnswers } from './schemas.js';
import { type DocumentReadings, type JsonObject, ref } from './types.js';

interface Answer {
  readonly status: number;
  readonly code: string;
  readonly when: string;
}

/** Whether the endpoint needs (or, with `/` left open, may need) a key. */
export function needsKey(endpoint: EndpointSpec, readings: DocumentReadings): boolean {
  if (endpoint.access === 'public') return false;
  return endpoint.access !== 'any_key' || indexReading(readings) !== 'public';
}

function refusalsOf(endpoint: EndpointSpec, readings: DocumentReadings): Refusal[] {
  if (!needsKey(endpoint, readings)) return [];
  if (endpoint.access === 'platform')
    return ['missing_key', 'invalid_key', 'platform_refused', 'scope'];
  if (endpoint.access === 'tenant')
    return ['missing_key', 'invalid_key', 'tenant_mismatch', 'scope'];
  return ['missing_key', 'invalid_key'];
}

/** The codes the contract assumes besides the refusals (none is in the spec). */
function fixedOf(endpoint: EndpointSpec, template: boolean): [FixedErrorCode, string][] {
  const found: [FixedErrorCode, string][] = [];
  if (endpoint.access === 'tenant')
    found.push(
      [ERROR_CODES.notFound, 'there is no such tenant'],
      [ERROR_CODES.invalidTenantSlug, FIXED_WHEN.invalid_tenant_slug],
    );
  if (template) found.push([ERROR_CODES.notFound, 'the API serves no such /platform/ sub-path']);
  return found;
}

/** Every refusal under every reading the document allows, once per (status, code, when). */
function refusalAnswers(endpoint: EndpointSpec, readings: DocumentReadings): Answer[] {
  const all = refusalsOf(endpoint, readings).flatMap((refusal) =>
    possibleAnswers(refusal, readings),
  );
  return all.filter(
    (a, i) =>
      all.findIndex((b) => b.status === a.status && b.code === a.code && b.when === a.when) === i,
  );
}

function headerRefs(names: readonly string[]): JsonObject {
  return Object.fromEntries(names.map((name) => [name, ref('headers', name)]));
}

/** The narrowed style's fields on every answer to a keyed call; none while the style is open. */
function everyAnswerFields(readings: DocumentReadings, keyed: boolean): readonly string[] {
  const style = readings.rateLimitHeaders;
  return keyed && style !== undefined ? RATE_LIMIT_STYLE_FIELDS[style].everyAnswer : [];
}

function retryFields(readings: DocumentReadings): readonly string[] {
  const style = readings.rateLimitHeaders;
  return style === undefined ? [RETRY_AFTER] : RATE_LIMIT_STYLE_FIELDS[style].on429;
}

/** When each code of a status is sent: `[code, "when; or when"]`. */
function byCode(answers: readonly Answer[]): [string, string][] {
  const codes = [...new Set(answers.map((a) => a.code))];
  return codes.map((code) => [
    code,
    answers
      .filter((a) => a.code === code)
      .map((a) => a.when)
      .join('; or '),
  ]);
}

function errorResponse(
  description: string,
  answers: readonly Answer[],
  headers: readonly string[],
) {
  const examples = Object.fromEntries(
    byCode(answers).map(([code, when]) => [
      code,
      { summary: when, value: { ok: false, error: { code, message: '(po polsku)' } } },
    ]),
  );
  const lines = byCode(answers).map(([code, when]) => `\`${code}\`: ${when}.`);
  return {
    description: [description, ...lines].join(' '),
    headers: headerRefs([REQUEST_ID_HEADER, ...headers]),
    content: {
      'application/json': {
        schema: ref('schemas', 'ErrorEnvelope'),
        ...(answers.length > 0 ? { examples } : {}),
      },
    },
  };
}

function successResponse(endpoint: EndpointSpec, readings: DocumentReadings): JsonObject {
  const names = [
    REQUEST_ID_HEADER,
    ...everyAnswerFields(readings, needsKey(endpoint, readings)),
    ...(endpoint.list ? ['link'] : []),
  ];
  const schema = ref('schemas', endpoint.list ? 'ListEnvelope' : 'SuccessEnvelope');
  return {
    description: `Success: ${endpoint.returns}. Any 2XX: the spec does not state the status.`,
    headers: headerRefs(names),
    content: { 'application/json': { schema } },
  };
}

const SERVER_ERROR: JsonObject = {
  description:
    "The server (or a gateway in front of it) failed: `internal_error` in the envelope, or the gateway's own body. Worth a retry for 502, 503 and 504.",
  headers: headerRefs([REQUEST_ID_HEADER]),
  content: { 'application/json': { schema: ref('schemas', 'ErrorEnvelope') } },
};

const TOO_MANY =
  'Rate limited (spec §7 asks every integration to handle 429; limits and headers are not shown, spec §8). `Retry-After`, when sent, is delta-seconds or an HTTP-date (RFC 9110 §10.2.3); other rate-limit fields may come and are not described here.';

const OTHER_4XX =
  'Any other refusal, in the error envelope (spec §1, §7: the codes beyond `unauthorized` and `tenant_key_tenant_mismatch`, and their statuses, are not shown).';

/** The operation's `responses`: 2XX, each refusal's status in order, 429, 4XX, 5XX. */
export function operationResponses(
  endpoint: EndpointSpec,
  readings: DocumentReadings,
  template = false,
): JsonObject {
  const refusals = refusalAnswers(endpoint, readings);
  const fixed = fixedOf(endpoint, template).map(([code, when]) => ({
    code,
    when,
    status: ERROR_STATUS[code],
  }));
  const statuses = [...new Set(refusals.map((a) => a.status))].sort((a, b) => a - b);
  const all = [...refusals, ...fixed];
  const keyed = everyAnswerFields(readings, needsKey(endpoint, readings));
  const limited: Answer = {
    status: 429,
    code: ERROR_CODES.rateLimited,
    when: `${FIXED_WHEN.rate_limited} (the code is assumed)`,
  };
  return {
    '2XX': successResponse(endpoint, readings),
    ...Object.fromEntries(
      statuses.map((status) => [
        String(status),
        errorResponse(
          'Refused.',
          all.filter((a) => a.status === status),
          keyed,
        ),
      ]),
    ),
    '429': errorResponse(TOO_MANY, [limited], [...retryFields(readings), ...keyed]),
    '4XX': errorResponse(
      OTHER_4XX,
      fixed.filter((a) => !statuses.includes(a.status)),
      keyed,
    ),
    '5XX': SERVER_ERROR,
  };
}
