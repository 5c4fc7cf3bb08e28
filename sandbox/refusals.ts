/**
 * How the sandbox refuses a request in a dialect: the status and `error.code` of each refusal
 * whose form the spec leaves open. Only the tenant mismatch is fixed by the spec (403
 * `tenant_key_tenant_mismatch`); every other answer here follows the dialect.
 */
import { ERROR_CODES } from '../api/contract/index.js';
import { ERROR_STATUS } from '../api/contract/server/index.js';
import type { DialectSettings } from './dialect/index.js';

export type Refusal =
  /** No key on a path that needs one. */
  | 'missing_key'
  /** Unknown, revoked or malformed key. */
  | 'invalid_key'
  | 'tenant_mismatch'
  /** A key on a resource outside its scope. */
  | 'scope'
  /** A tenant key on /platform/*. */
  | 'platform_refused';

export interface RefusalAnswer {
  readonly status: number;
  readonly code: string;
}

/** The code a dialect's `scope-refusal=forbidden` sends; not one of the contract's codes. */
export const FORBIDDEN_CODE = 'forbidden';
const FORBIDDEN_STATUS = 403;

function notFound(): RefusalAnswer {
  return { status: ERROR_STATUS.not_found, code: ERROR_CODES.notFound };
}

export function refusalAnswer(refusal: Refusal, dialect: DialectSettings): RefusalAnswer {
  switch (refusal) {
    case 'missing_key':
      return { status: dialect.unauthorizedStatus, code: dialect.missingKey };
    case 'invalid_key':
      return { status: dialect.unauthorizedStatus, code: ERROR_CODES.unauthorized };
    case 'tenant_mismatch':
      return { status: ERROR_STATUS.tenant_key_tenant_mismatch, code: ERROR_CODES.tenantMismatch };
    case 'scope':
      if (dialect.scopeRefusal === 'not_found') return notFound();
      if (dialect.scopeRefusal === 'forbidden') return { status: FORBIDDEN_STATUS, code: FORBIDDEN_CODE };
      return { status: ERROR_STATUS.insufficient_scope, code: ERROR_CODES.insufficientScope };
    case 'platform_refused':
      if (dialect.platformRefusal === 'not_found') return notFound();
      if (dialect.platformRefusal === 'unauthorized') return { status: dialect.unauthorizedStatus, code: ERROR_CODES.unauthorized };
      return { status: ERROR_STATUS.platform_key_required, code: ERROR_CODES.platformKeyRequired };
  }
}

export const REFUSALS: readonly Refusal[] = ['missing_key', 'invalid_key', 'tenant_mismatch', 'scope', 'platform_refused'];
