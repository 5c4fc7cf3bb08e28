/**
 * The spec's debugging checklist (§7) as a pure function: recorded answers in, rows out. The
 * generated project's `npm run check` and the toolkit's diagnosis both evaluate with this, so
 * for the same answers they show the same rows. Which key works is judged on tenant paths,
 * which the spec says need a key, never on `/`, whose access the spec does not show.
 */
import type { AttemptResult } from '../client/single-attempt.js';
import { ERROR_CODES, TENANT_RESOURCES, type TenantResource, endpointSpec, joinUrl } from '../contract/index.js';
import { describeAnswer } from './answer.js';
import { type ChecklistCause, causeOf, provesApiPath, provesKeyAccepted } from './cause.js';

export type ChecklistStatus = 'pass' | 'fail' | 'skip';
export type ChecklistRowId = 'host' | 'path' | 'key' | 'tenant' | `scope:${TenantResource}`;
/** What decided a row: the /docs call or one tenant resource call. */
export type ChecklistEvidence = 'docs' | TenantResource;

export interface ChecklistRow {
  readonly id: ChecklistRowId;
  /** The §7 step: 1 host and path, 2 key and scope, 3 tenant. Steps 4-5 are `detail` and the curl line. */
  readonly step: 1 | 2 | 3;
  readonly label: string;
  readonly status: ChecklistStatus;
  readonly cause: ChecklistCause;
  /** Step 4: the status and error payload the row was decided on, plus what to do. */
  readonly detail: string;
  readonly evidence?: ChecklistEvidence | undefined;
}

export interface ChecklistObservations {
  /** GET /docs without a key. */
  readonly docs?: AttemptResult | undefined;
  /** GET /tenants/{tenant}/{resource} with the key, for each resource called. */
  readonly resources: Readonly<Partial<Record<TenantResource, AttemptResult>>>;
}

export interface ChecklistInput {
  readonly baseUrl: string;
  /** The tenant in the resource paths; undefined when there was none to call. */
  readonly tenant: string | undefined;
  readonly observations: ChecklistObservations;
}

interface Seen {
  readonly evidence: ChecklistEvidence;
  readonly result: AttemptResult;
  readonly cause: ChecklistCause;
}

const notChecked = (because: string): ChecklistCause => ({ kind: 'not_checked', because });

function row(id: ChecklistRowId, step: ChecklistRow['step'], label: string, status: ChecklistStatus, cause: ChecklistCause, detail: string, evidence?: ChecklistEvidence): ChecklistRow {
  return { id, step, label, status, cause, detail, ...(evidence ? { evidence } : {}) };
}

function seenResources(obs: ChecklistObservations): Seen[] {
  return TENANT_RESOURCES.flatMap((resource): Seen[] => {
    const result = obs.resources[resource];
    return result ? [{ evidence: resource, result, cause: causeOf(result) }] : [];
  });
}

function hostRow(host: string, all: readonly Seen[]): ChecklistRow {
  const label = 'host reachable';
  if (all.length === 0) return row('host', 1, label, 'skip', notChecked('no call was made'), 'no call was made');
  const answered = all.find((s) => s.result.kind === 'response');
  if (answered?.result.kind === 'response') return row('host', 1, label, 'pass', { kind: 'ok' }, `${host} answered HTTP ${answered.result.status}`, answered.evidence);
  const first = all[0]!;
  return row('host', 1, label, 'fail', first.cause, `${host}: ${describeAnswer(first.result)}; check the host name, port and network`, first.evidence);
}

/** The base path leads to the API when anything there answers with the envelope, /docs first. */
function pathRow(baseUrl: string, docs: Seen | undefined, resources: readonly Seen[], host: ChecklistRow): ChecklistRow {
  const label = 'base path answers with the API envelope';
  if (host.status !== 'pass') return row('path', 1, label, 'skip', notChecked('host not reachable'), 'host not reachable');
  if (docs?.cause.kind === 'ok') return row('path', 1, label, 'pass', { kind: 'ok' }, `${describeAnswer(docs.result)} from ${joinUrl(baseUrl, '/docs')}`, 'docs');
  const enveloped = resources.find((s) => provesApiPath(s.cause));
  if (enveloped?.result.kind === 'response') {
    const docsNote = docs ? `; GET /docs: ${describeAnswer(docs.result)}` : '';
    return row('path', 1, label, 'pass', { kind: 'ok' }, `HTTP ${enveloped.result.status} envelope from ${endpointSpec(enveloped.evidence as TenantResource).pathTemplate}${docsNote}`, enveloped.evidence);
  }
  const blamed = docs ?? resources[0]!;
  return row('path', 1, label, 'fail', blamed.cause, `${describeAnswer(blamed.result)} from ${joinUrl(baseUrl, '/docs')}; the base URL must end in /api/v1`, blamed.evidence);
}

function keyRow(resources: readonly Seen[], host: ChecklistRow): ChecklistRow {
  const label = 'key accepted';
  if (resources.length === 0) return row('key', 2, label, 'skip', notChecked('no tenant path was called'), 'no tenant to call a keyed endpoint with');
  const rejected = resources.find((s) => s.cause.kind === 'unauthorized');
  if (rejected) return row('key', 2, label, 'fail', rejected.cause, `${describeAnswer(rejected.result)}: key rejected (invalid, revoked, or from the other environment)`, rejected.evidence);
  const accepted = resources.find((s) => provesKeyAccepted(s.cause));
  if (accepted) return row('key', 2, label, 'pass', { kind: 'ok' }, `${describeAnswer(accepted.result)} on ${accepted.evidence}`, accepted.evidence);
  if (host.status !== 'pass') return row('key', 2, label, 'skip', notChecked('host not reachable'), 'host not reachable');
  const first = resources.find((s) => s.result.kind === 'response') ?? resources[0]!;
  return row('key', 2, label, 'fail', first.cause, `${describeAnswer(first.result)}: no tenant path answered in a way that shows whether the key works`, first.evidence);
}

function tenantRow(tenant: string | undefined, resources: readonly Seen[], key: ChecklistRow): ChecklistRow {
  const label = tenant === undefined ? 'tenant matches key' : `tenant matches key (${tenant})`;
  if (tenant === undefined || resources.length === 0) return row('tenant', 3, label, 'skip', notChecked('no tenant given'), 'no tenant given');
  const mismatch = resources.find((s) => s.cause.kind === 'tenant_mismatch');
  if (mismatch) {
    return row('tenant', 3, label, 'fail', mismatch.cause, `${describeAnswer(mismatch.result)}: the key is not assigned to tenant "${tenant}"; use that tenant's key or fix the tenant slug`, mismatch.evidence);
  }
  const reached = resources.find((s) => s.cause.kind === 'ok' || s.cause.kind === 'insufficient_scope');
  if (reached) return row('tenant', 3, label, 'pass', { kind: 'ok' }, `${describeAnswer(reached.result)}: no ${ERROR_CODES.tenantMismatch} refusal`, reached.evidence);
  if (key.status === 'fail' && key.cause.kind === 'unauthorized') return row('tenant', 3, label, 'skip', notChecked('key not accepted'), 'key not accepted');
  const notFound = resources.every((s) => s.cause.kind === 'not_found');
  if (notFound) {
    const first = resources[0]!;
    return row('tenant', 3, label, 'fail', first.cause, `${describeAnswer(first.result)}: nothing at tenant "${tenant}"; check the tenant slug`, first.evidence);
  }
  return row('tenant', 3, label, 'skip', notChecked('no tenant call got through'), 'no tenant call got through');
}

/**
 * A refusal of one resource while another of the same tenant was served can only be the key's
 * scope, whatever its code (READING: SCOPE_REFUSALS, `insufficient_scope`, `forbidden` or a
 * hiding 404; an API may spell its own, such as `scope_denied`).
 */
function scopeRefusal(cause: ChecklistCause, served: readonly TenantResource[]): ChecklistCause | undefined {
  if (served.length === 0 || (cause.kind !== 'forbidden' && cause.kind !== 'not_found')) return undefined;
  return { kind: 'insufficient_scope', status: cause.status, code: cause.code };
}

function scopeRow(resource: TenantResource, seen: Seen | undefined, served: readonly TenantResource[], tenant: ChecklistRow, key: ChecklistRow): ChecklistRow {
  const id: ChecklistRowId = `scope:${resource}`;
  const label = `scope covers ${resource}`;
  if (!seen) return row(id, 2, label, 'skip', notChecked('not called'), key.status === 'skip' ? key.detail : 'not called');
  const { result } = seen;
  const scoped = scopeRefusal(seen.cause, served);
  if (scoped) return row(id, 2, label, 'fail', scoped, `${describeAnswer(result)}: the key's scope does not cover ${resource} (${served.join(', ')} answered for this tenant)`, resource);
  const { cause } = seen;
  if (cause.kind === 'ok') {
    const data = result.kind === 'response' && result.classification.kind === 'ok' ? result.classification.data : undefined;
    const count = Array.isArray(data) ? ` (${data.length} items)` : '';
    return row(id, 2, label, 'pass', cause, `${describeAnswer(result)}${count}`, resource);
  }
  if (cause.kind === 'insufficient_scope') return row(id, 2, label, 'fail', cause, `${describeAnswer(result)}: the key's scope does not cover ${resource}`, resource);
  if (cause.kind === 'tenant_mismatch' || cause.kind === 'unauthorized') {
    const because = cause.kind === 'tenant_mismatch' ? 'tenant mismatch' : 'key not accepted';
    return row(id, 2, label, 'skip', notChecked(because), because, resource);
  }
  if (tenant.status === 'fail' && tenant.cause.kind === cause.kind) return row(id, 2, label, 'skip', notChecked('tenant not found'), 'tenant not found', resource);
  return row(id, 2, label, 'fail', cause, describeAnswer(result), resource);
}

export function evaluateChecklist(input: ChecklistInput): ChecklistRow[] {
  const { observations: obs } = input;
  const docs: Seen | undefined = obs.docs ? { evidence: 'docs', result: obs.docs, cause: causeOf(obs.docs) } : undefined;
  const resources = seenResources(obs);
  const host = hostRow(new URL(input.baseUrl).host, docs ? [docs, ...resources] : resources);
  const path = pathRow(input.baseUrl, docs, resources, host);
  const key = keyRow(resources, host);
  const tenant = tenantRow(input.tenant, resources, key);
  const served = resources.filter((s) => s.cause.kind === 'ok').map((s) => s.evidence as TenantResource);
  const scopes = TENANT_RESOURCES.map((resource) => scopeRow(resource, resources.find((s) => s.evidence === resource), served, tenant, key));
  return [host, path, key, tenant, ...scopes];
}

export function checklistPassed(rows: readonly ChecklistRow[]): boolean {
  return rows.every((r) => r.status === 'pass');
}
