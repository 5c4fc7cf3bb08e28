/**
 * The spec's debugging checklist (§7) as a pure function, recorded answers in, rows out: `npm run
 * check` and the toolkit's diagnosis show the same rows for the same answers. Whether the key works
 * is judged on tenant paths, which need a key, never on `/`, whose access the spec does not show.
 */
import type { AttemptResult } from '../client/single-attempt.js';
import {
  ERROR_CODES,
  TENANT_RESOURCES,
  type TenantResource,
  endpointSpec,
  joinUrl,
  printable,
} from '../contract/index.js';
import {
  type ChecklistCause,
  causeOf,
  describeAnswer,
  provesApiPath,
  provesKeyAccepted,
} from './cause.js';

export type ChecklistRowId = 'host' | 'path' | 'key' | 'tenant' | `scope:${TenantResource}`;
/** What decided a row: the /docs call or one tenant resource call. */
export type ChecklistEvidence = 'docs' | TenantResource;

export interface ChecklistRow {
  readonly id: ChecklistRowId;
  /** The §7 step: 1 host and path, 2 key and scope, 3 tenant (4-5: `detail`, the curl line). */
  readonly step: 1 | 2 | 3;
  readonly label: string;
  readonly status: 'pass' | 'fail' | 'skip';
  readonly cause: ChecklistCause;
  /** Step 4: the status and error payload the row was decided on, plus what to do. */
  readonly detail: string;
  readonly evidence?: ChecklistEvidence | undefined;
}

/**
 * `tenant`: the one in the resource paths; `observations`: answers by call id (`docs`,
 * `scope:<resource>`).
 */
export type ChecklistInput = {
  readonly baseUrl: string;
  readonly tenant: string | undefined;
  readonly observations: ReadonlyMap<string, { readonly result: AttemptResult | undefined }>;
};

type Seen = { evidence: ChecklistEvidence; result: AttemptResult; cause: ChecklistCause };

/** A row's three ends: `pass`, `fail` on what one call answered, `skip` when none decided it. */
function rowOf(id: ChecklistRowId, step: ChecklistRow['step'], label: string) {
  const make = (
    status: ChecklistRow['status'],
    cause: ChecklistCause,
    detail: string,
    evidence?: ChecklistEvidence,
  ): ChecklistRow => ({ id, step, label, status, cause, detail, ...(evidence && { evidence }) });
  return {
    pass: (seen: Seen, detail: string) => make('pass', { kind: 'ok' }, detail, seen.evidence),
    fail: (seen: Seen, detail: string, cause = seen.cause) =>
      make('fail', cause, detail, seen.evidence),
    skip: (because: string, detail = because, evidence?: ChecklistEvidence) =>
      make('skip', { kind: 'not_checked', because }, detail, evidence),
  };
}

const said = (seen: Seen): string => describeAnswer(seen.result);

const SERVER_FAULTS: ReadonlySet<ChecklistCause['kind']> = new Set([
  'server_error',
  'timeout',
  'connection_error',
  'invalid_envelope',
]);

/** Texts `npm run check` looks for: its CA hint, its "rate limited" ending. */
export const UNTRUSTED = 'certificate not trusted: give its CA';
export const RATE_LIMITED = 'rate limited';

/** A TLS failure's advice, for this row and `repairmon probe`. */
export function tlsAdvice(code: string): string | undefined {
  if (/UNABLE_TO_(GET|VERIFY)|SELF_SIGNED|DEPTH_ZERO/.test(code)) return UNTRUSTED;
  if (code.includes('EXPIRED')) return 'the certificate has expired';
  if (code.includes('ALTNAME')) return 'the certificate is for another host name';
  if (code.includes('WRONG_VERSION'))
    return 'that port does not speak HTTPS; is the base URL http://?';
}

function hostRow(host: string, all: Seen[]): ChecklistRow {
  const { pass, fail, skip } = rowOf('host', 1, 'host reachable');
  if (all.length === 0) return skip('no call was made');
  const answered = all.find((s) => s.result.kind === 'response');
  if (answered?.result.kind === 'response')
    return pass(answered, `${host} answered HTTP ${answered.result.status}`);
  const [first] = all as [Seen];
  const { cause } = first;
  const tls =
    cause.kind === 'tls_error' && 'code' in cause.failure && tlsAdvice(cause.failure.code);
  return fail(first, `${host}: ${said(first)}; ${tls || 'check the host name, port, network'}`);
}

/** The base path leads to the API when anything there answers with the envelope, /docs first. */
function pathRow(
  docsUrl: string,
  docs: Seen | undefined,
  resources: Seen[],
  host: ChecklistRow,
): ChecklistRow {
  const { pass, fail, skip } = rowOf('path', 1, 'base path answers with the API envelope');
  if (host.status !== 'pass') return skip('host not reachable');
  if (docs?.cause.kind === 'ok') return pass(docs, `${said(docs)} from ${docsUrl}`);
  const enveloped = resources.find((s) => provesApiPath(s.cause));
  if (enveloped?.result.kind === 'response') {
    const docsNote = docs ? `; GET /docs: ${said(docs)}` : '';
    const path = endpointSpec(enveloped.evidence).pathTemplate;
    return pass(enveloped, `HTTP ${enveloped.result.status} envelope from ${path}${docsNote}`);
  }
  const blamed = docs ?? resources[0]!;
  return fail(blamed, `${said(blamed)} from ${docsUrl}; the base URL must end in /api/v1`);
}

function keyRow(resources: Seen[], host: ChecklistRow): ChecklistRow {
  const { pass, fail, skip } = rowOf('key', 2, 'key accepted');
  if (resources.length === 0 && host.status !== 'pass') return skip('host not reachable');
  if (resources.length === 0)
    return skip('no tenant path was called', 'no tenant to call a keyed endpoint with');
  const rejected = resources.find((s) => s.cause.kind === 'unauthorized');
  if (rejected)
    return fail(
      rejected,
      `${said(rejected)}: key rejected (invalid, revoked, or from the other environment)`,
    );
  const accepted = resources.find((s) => provesKeyAccepted(s.cause));
  if (accepted) return pass(accepted, `${said(accepted)} on ${accepted.evidence}`);
  if (host.status !== 'pass') return skip('host not reachable');
  // A 400-like refusal of every tenant path is the request's (the slug?), not the key's.
  if (resources.every((s) => s.cause.kind === 'client_error'))
    return skip('tenant path refused', `${said(resources[0]!)}: not decided; see tenant`);
  const first = resources.find((s) => s.result.kind === 'response') ?? resources[0]!;
  return fail(
    first,
    `${said(first)}: no tenant path answered in a way that shows whether the key works`,
  );
}

function tenantRow(tenant: string | undefined, resources: Seen[], key: ChecklistRow): ChecklistRow {
  const { pass, fail, skip } = rowOf(
    'tenant',
    3,
    tenant === undefined ? 'tenant matches key' : `tenant matches key (${tenant})`,
  );
  if (tenant === undefined) return skip('no tenant given');
  // No tenant call: the key row, skipped, says why.
  if (resources.length === 0) return skip(key.detail);
  const mismatch = resources.find((s) => s.cause.kind === 'tenant_mismatch');
  if (mismatch)
    return fail(
      mismatch,
      `${said(mismatch)}: the key is not assigned to tenant "${tenant}"; ` +
        "use that tenant's key or fix the tenant slug",
    );
  const reached = resources.find(
    (s) => s.cause.kind === 'ok' || s.cause.kind === 'insufficient_scope',
  );
  if (reached) return pass(reached, `${said(reached)}: no ${ERROR_CODES.tenantMismatch} refusal`);
  if (key.status === 'fail' && key.cause.kind === 'unauthorized') return skip('key not accepted');
  for (const [kind, what] of [
    ['not_found', 'nothing at'],
    ['client_error', 'the API refuses every path of'],
  ] as const)
    if (resources.every((s) => s.cause.kind === kind))
      return fail(
        resources[0]!,
        `${said(resources[0]!)}: ${what} tenant "${tenant}"; check the tenant slug`,
      );
  return skip('no tenant call got through');
}

function scopeRow(
  resource: TenantResource,
  seen: Seen | undefined,
  served: TenantResource[],
  tenant: ChecklistRow,
  key: ChecklistRow,
) {
  const { pass, fail, skip } = rowOf(`scope:${resource}`, 2, `scope covers ${resource}`);
  if (!seen) return skip('not called', key.status === 'skip' ? key.detail : 'not called');
  const { cause, result } = seen;
  // A refusal of one resource while another of the tenant was served can only be the key's scope,
  // whatever its code (READING: SCOPE_REFUSALS; an API may also spell its own, such as
  // `scope_denied`).
  if (served.length > 0 && (cause.kind === 'forbidden' || cause.kind === 'not_found')) {
    const scoped: ChecklistCause = { ...cause, kind: 'insufficient_scope' };
    return fail(
      seen,
      `${said(seen)}: the key's scope does not cover ${resource} ` +
        `(${served.join(', ')} answered for this tenant)`,
      scoped,
    );
  }
  if (cause.kind === 'ok') {
    const data =
      result.kind === 'response' && result.classification.kind === 'ok'
        ? result.classification.data
        : undefined;
    return pass(seen, `${said(seen)}${Array.isArray(data) ? ` (${data.length} items)` : ''}`);
  }
  if (cause.kind === 'insufficient_scope')
    return fail(seen, `${said(seen)}: the key's scope does not cover ${resource}`);
  if (cause.kind === 'tenant_mismatch') return skip('tenant mismatch', undefined, resource);
  if (cause.kind === 'unauthorized') return skip('key not accepted', undefined, resource);
  if (tenant.status === 'fail' && tenant.cause.kind === cause.kind)
    return skip(
      cause.kind === 'not_found' ? 'tenant not found' : 'tenant refused',
      undefined,
      resource,
    );
  // A 429 says nothing of the scope: the row waits for a later run.
  if (cause.kind === 'rate_limited') {
    const wait =
      cause.retryAfter === undefined ? '' : ` (Retry-After: ${printable(cause.retryAfter)})`;
    return skip(RATE_LIMITED, `${said(seen)}: not decided; run again later${wait}`, resource);
  }
  // A server failing says nothing of the scope either, but unlike a 429 it fails the check.
  const server = SERVER_FAULTS.has(cause.kind);
  return fail(
    seen,
    `${said(seen)}${server ? ': a server fault, not the scope; run again later' : ''}`,
  );
}

export function evaluateChecklist(input: ChecklistInput): ChecklistRow[] {
  const seenAt = (id: string, evidence: ChecklistEvidence): Seen[] => {
    const result = input.observations.get(id)?.result;
    return result ? [{ evidence, result, cause: causeOf(result) }] : [];
  };
  const [docs] = seenAt('docs', 'docs');
  const resources = TENANT_RESOURCES.flatMap((r) => seenAt(`scope:${r}`, r));
  const host = hostRow(new URL(input.baseUrl).host, docs ? [docs, ...resources] : resources);
  const path = pathRow(joinUrl(input.baseUrl, '/docs'), docs, resources, host);
  const key = keyRow(resources, host);
  const tenant = tenantRow(input.tenant, resources, key);
  const served = resources
    .filter((s) => s.cause.kind === 'ok')
    .map((s) => s.evidence as TenantResource);
  const seen = (r: TenantResource) => resources.find((s) => s.evidence === r);
  const scopes = TENANT_RESOURCES.map((r) => scopeRow(r, seen(r), served, tenant, key));
  return [host, path, key, tenant, ...scopes];
}

export function checklistPassed(rows: readonly ChecklistRow[]): boolean {
  return rows.every((r) => r.status === 'pass');
}

/** A plain-text table for a terminal; it quotes the server, so every line is made printable. */
export function formatChecklistTable(rows: readonly ChecklistRow[]): string {
  const width = Math.max(5, ...rows.map((r) => r.label.length));
  const lines = rows.map((r) =>
    printable(`${r.label.padEnd(width)}  ${r.status.toUpperCase().padEnd(6)}  ${r.detail}`),
  );
  return [`${'CHECK'.padEnd(width)}  RESULT  DETAIL`, ...lines].join('\n');
}
