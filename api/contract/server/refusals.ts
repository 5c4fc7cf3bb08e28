/**
 * How a server refuses a request under given readings: the status and `error.code` of each
 * refusal whose form the spec leaves open. Only the tenant mismatch is fixed by the spec (403
 * `tenant_key_tenant_mismatch`); every other answer here follows the readings.
 */
import { ERROR_CODES } from '../index.js';
import { ERROR_STATUS } from './errors.js';
import type { Readings } from './readings.js';

/**
 * `missing_key`: no key on a path that needs one; `invalid_key`: an unknown, revoked or
 * malformed key; `scope`: a resource outside the key's scope; `platform_refused`: a tenant key
 * on /platform/*.
 */
export const REFUSALS = [
  'missing_key',
  'invalid_key',
  'tenant_mismatch',
  'scope',
  'platform_refused',
] as const;
export type Refusal = (typeof REFUSALS)[number];

export interface RefusalAnswer {
  readonly status: number;
  readonly code: string;
}

export type RefusalReadings = Pick<
  Readings,
  'unauthorizedStatus' | 'missingKey' | 'scopeRefusal' | 'platformRefusal'
>;

/** The code `scope-refusal=forbidden` sends; not one of the contract's codes. */
export const FORBIDDEN_CODE = 'forbidden';
const FORBIDDEN_STATUS = 403;

function notFound(): RefusalAnswer {
  return { status: ERROR_STATUS.not_found, code: ERROR_CODES.notFound };
}

export function refusalAnswer(refusal: Refusal, readings: RefusalReadings): RefusalAnswer {
  switch (refusal) {
    case 'missing_key':
      return { status: readings.unauthorizedStatus, code: readings.missingKey };
    case 'invalid_key':
      return { status: readings.unauthorizedStatus, code: ERROR_CODES.unauthorized };
    case 'tenant_mismatch':
      return { status: ERROR_STATUS.tenant_key_tenant_mismatch, code: ERROR_CODES.tenantMismatch };
    case 'scope':
      if (readings.scopeRefusal === 'not_found') return notFound();
      if (readings.scopeRefusal === 'forbidden')
        return { status: FORBIDDEN_STATUS, code: FORBIDDEN_CODE };
      return { status: ERROR_STATUS.insufficient_scope, code: ERROR_CODES.insufficientScope };
    case 'platform_refused':
      if (readings.platformRefusal === 'not_found') return notFound();
      if (readings.platformRefusal === 'unauthorized')
        return { status: readings.unauthorizedStatus, code: ERROR_CODES.unauthorized };
      return { status: ERROR_STATUS.platform_key_required, code: ERROR_CODES.platformKeyRequired };
  }
}

/**
 * Codes sent whatever the readings (405 for anything but GET, 400 for a bad slug...), each with its
 * `ERROR_STATUS`.
 */
export const FIXED_ERROR_CODES = [
  ERROR_CODES.rateLimited,
  ERROR_CODES.notFound,
  ERROR_CODES.methodNotAllowed,
  ERROR_CODES.invalidTenantSlug,
  ERROR_CODES.badRequest,
  ERROR_CODES.internalError,
] as const;
export type FixedErrorCode = (typeof FIXED_ERROR_CODES)[number];

/** Every `{ code, status }` a server sends under the readings, refusals first, once each. */
export function sentErrors(readings: RefusalReadings): RefusalAnswer[] {
  const all = [
    ...REFUSALS.map((r) => refusalAnswer(r, readings)).map(({ code, status }) => ({
      code,
      status,
    })),
    ...FIXED_ERROR_CODES.map((code) => ({ code, status: ERROR_STATUS[code] })),
  ];
  return all.filter(
    (a, i) => all.findIndex((b) => b.code === a.code && b.status === a.status) === i,
  );
}
