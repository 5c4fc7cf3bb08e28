/**
 * The answers each endpoint can give under the readings, grouped by status as OpenAPI wants:
 * the success envelope, every refusal and error with its code, 401/403/429 wherever a key is
 * needed (spec §7 asks every integration to handle them), and the header fields each carries.
 */
import {
  type EndpointSpec,
  ERROR_CODES,
  HANDLED_STATUSES,
  REQUEST_ID_HEADER,
} from '../contract/index.js';
import {
  ERROR_STATUS,
  type FixedErrorCode,
  RATE_LIMIT_STYLE_FIELDS,
  type Readings,
  type Refusal,
  bodyForm,
  refusalAnswer,
} from '../contract/server/index.js';
import { FIXED_WHEN, REFUSAL_WHEN } from './schemas.js';
import { type JsonObject, ref } from './types.js';

interface Answer {
  readonly status: number;
  readonly code: string;
  readonly when: string;
  /** Counted by the rate limiter (a key was accepted), so it carries the rate-limit fields. */
  readonly counted: boolean;
}

/** Whether the endpoint needs (or, for an unknown reading of `/`, may need) a key. */
export function needsKey(endpoint: EndpointSpec, readings: Readings): boolean {
  if (endpoint.access === 'public') return false;
  return endpoint.access !== 'any_key' || readings.index !== 'public';
}

function errorAnswers(
  endpoint: EndpointSpec,
  readings: Readings,
  platformTemplate: boolean,
): Answer[] {
  if (!needsKey(endpoint, readings)) return [];
  const refusal = (r: Refusal): Answer => ({
    ...refusalAnswer(r, readings),
    when: REFUSAL_WHEN[r],
    counted: r !== 'missing_key' && r !== 'invalid_key',
  });
  const fixed = (code: FixedErrorCode, when: string = FIXED_WHEN[code]): Answer => ({
    code,
    status: ERROR_STATUS[code],
    when,
    counted: true,
  });
  const answers = [refusal('missing_key'), refusal('invalid_key')];
  if (endpoint.access === 'platform') {
    answers.push(refusal('platform_refused'), refusal('scope'));
    if (platformTemplate)
      answers.push(fixed(ERROR_CODES.notFound, 'the API serves no such /platform/ sub-path'));
  }
  if (endpoint.access === 'tenant') {
    answers.push(
      refusal('tenant_mismatch'),
      refusal('scope'),
      fixed(ERROR_CODES.notFound, 'there is no such tenant'),
      fixed(ERROR_CODES.invalidTenantSlug),
    );
  }
  answers.push(fixed(ERROR_CODES.rateLimited));
  return answers;
}

function headerRefs(names: readonly string[]): JsonObject {
  return Object.fromEntries(names.map((name) => [name, ref('headers', name)]));
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

function errorContent(status: number, answers: readonly Answer[], readings: Readings): JsonObject {
  if (bodyForm(readings.errorBodies, status) === 'plain')
    return {
      'text/plain': {
        schema: { type: 'string', description: 'The status text (error-bodies=plain).' },
      },
    };
  const examples = Object.fromEntries(
    byCode(answers).map(([code, when]) => [
      code,
      { summary: when, value: { ok: false, error: { code, message: '(po polsku)' } } },
    ]),
  );
  return {
    'application/json': {
      schema: ref('schemas', 'ErrorEnvelope'),
      ...(answers.length > 0 ? { examples } : {}),
    },
  };
}

function errorResponse(status: number, answers: readonly Answer[], readings: Readings): JsonObject {
  const style = RATE_LIMIT_STYLE_FIELDS[readings.rateLimitHeaders];
  const counted = answers.some((a) => a.counted);
  const rate = [...(status === 429 ? style.on429 : []), ...(counted ? style.everyAnswer : [])];
  const description =
    answers.length === 0
      ? 'Not expected from this endpoint under these readings; spec §7 asks every integration to handle 401, 403 and 429.'
      : byCode(answers)
          .map(([code, when]) => `\`${code}\`: ${when}.`)
          .join(' ');
  return {
    description,
    headers: headerRefs([REQUEST_ID_HEADER, ...rate]),
    content: errorContent(status, answers, readings),
  };
}

function successResponse(endpoint: EndpointSpec, readings: Readings): JsonObject {
  const keyed = needsKey(endpoint, readings);
  const names = [
    REQUEST_ID_HEADER,
    ...(keyed ? RATE_LIMIT_STYLE_FIELDS[readings.rateLimitHeaders].everyAnswer : []),
    ...(endpoint.list ? ['link'] : []),
  ];
  const schema = ref('schemas', endpoint.list ? 'ListEnvelope' : 'SuccessEnvelope');
  return {
    description: `OK: ${endpoint.returns}.`,
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

/** The operation's `responses`: 200, each error status in order, then 5XX. */
export function operationResponses(
  endpoint: EndpointSpec,
  readings: Readings,
  platformTemplate = false,
): JsonObject {
  const answers = errorAnswers(endpoint, readings, platformTemplate);
  const statuses = new Set(answers.map((a) => a.status));
  if (needsKey(endpoint, readings)) for (const status of HANDLED_STATUSES) statuses.add(status);
  const errors: [string, JsonObject][] = [...statuses]
    .sort((a, b) => a - b)
    .map((status) => [
      String(status),
      errorResponse(
        status,
        answers.filter((a) => a.status === status),
        readings,
      ),
    ]);
  return {
    '200': successResponse(endpoint, readings),
    ...Object.fromEntries(errors),
    '5XX': SERVER_ERROR,
  };
}
