/**
 * Reading `--base-url`: a support engineer often pastes the exact URL the customer calls, so a
 * `/tenants/<slug>/...` tail is split off as the URL's tenant and the rest is the base URL.
 */
import { BASE_PATH, validateTenantSlug } from '../api/contract/index.js';

export interface DiagnosisTarget {
  /** Origin plus base path, no trailing slash. */
  readonly baseUrl: string;
  readonly basePath: string;
  readonly urlTenant: string | undefined;
  readonly hostname: string;
}

const TENANT_TAIL = /^(.*?)\/tenants\/([^/]+)(?:\/.*)?$/;

export function parseTarget(raw: string): { ok: true; target: DiagnosisTarget } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'is not an absolute URL (e.g. https://api.example.com/api/v1)' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: `must be http or https, got ${url.protocol}` };
  // Credentials or a query could carry a key; refuse without repeating them.
  if (url.username !== '' || url.password !== '')
    return { ok: false, reason: 'must not contain user:password@ (pass the key with --key-env, --key-file or --key-stdin)' };
  if (url.search !== '' || url.hash !== '') return { ok: false, reason: 'must not contain a query string or fragment' };
  let path = url.pathname.replace(/\/+$/, '');
  let urlTenant: string | undefined;
  const match = TENANT_TAIL.exec(path);
  if (match) {
    let slug: string;
    try {
      slug = decodeURIComponent(match[2] ?? '');
    } catch {
      return { ok: false, reason: `has tenant "${match[2] ?? ''}" in its path, which is not valid percent-encoding` };
    }
    const check = validateTenantSlug(slug);
    if (!check.ok) return { ok: false, reason: `has tenant "${slug}" in its path, which ${check.reason}` };
    urlTenant = slug;
    path = match[1] ?? '';
  }
  return { ok: true, target: { baseUrl: `${url.origin}${path}`, basePath: path === '' ? '/' : path, urlTenant, hostname: url.hostname } };
}

export function endsWithVersion(target: DiagnosisTarget): boolean {
  return target.basePath.endsWith(BASE_PATH);
}

const LOCAL_HOSTS = /^(localhost|127\.\d+\.\d+\.\d+|\[?::1\]?|0\.0\.0\.0)$|\.(local|localhost|internal|test)$/i;
const NON_PRODUCTION_WORDS = /(^|[.-])(test|testing|sandbox|staging|stage|stg|dev|develop|qa|uat|demo|preprod)([.-]|\d|$)/i;

/** A heuristic used only to word an explanation: a public host with no test/staging marker. */
export function looksLikeProduction(hostname: string): boolean {
  return !LOCAL_HOSTS.test(hostname) && !NON_PRODUCTION_WORDS.test(hostname);
}
