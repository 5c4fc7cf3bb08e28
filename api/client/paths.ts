/**
 * Keeping a caller's path inside `{base_url}` (or `/platform/`), and telling which endpoint it is.
 * A URL parser resolves `..` and `.` (also as `%2e`), reads `\` as `/`, drops tabs and newlines and
 * reads `//host` as another host; some servers decode `%2f`, and Tomcat-style servers drop what
 * follows `;` in a segment (`..;x` is `..` there). Any of these could send the key elsewhere.
 */
import { BASE_PATH, type EndpointId, ENDPOINTS, isTenantResource } from '../contract/index.js';

export type PathCheck =
  | { readonly ok: true; readonly path: string; readonly query?: string | undefined }
  | { readonly ok: false; readonly reason: string };

/** Compared lowercase without `-`, `_`, `.` and spaces: a key in a URL ends up in access logs. */
// prettier-ignore
const CREDENTIAL_NAMES = new Set([
  'apikey', 'xapikey', 'key', 'token', 'accesstoken', 'authtoken', 'apitoken', 'sessiontoken',
  'idtoken', 'refreshtoken', 'auth', 'authorization', 'bearer', 'jwt', 'secret', 'apisecret',
  'clientsecret', 'password', 'passwd', 'credentials',
]);

export const isCredentialName = (name: string): boolean =>
  CREDENTIAL_NAMES.has(name.toLowerCase().replace(/[-_.\s]/g, ''));

const fail = (reason: string): PathCheck => ({ ok: false, reason });

function isDotSegment(segment: string): boolean {
  const plain = segment.split(';')[0]!.replace(/%(?:25)?2e/gi, '.');
  return plain === '.' || plain === '..';
}

/**
 * A path relative to `{base_url}`, with one leading `/`; `withQuery`: an encoded query may follow
 * `?`.
 */
export function checkSubPath(input: unknown, withQuery = false): PathCheck {
  if (typeof input !== 'string' || input === '')
    return fail('is empty: give a path relative to {base_url}, e.g. /docs');
  const at = input.indexOf('?');
  if (withQuery && at >= 0 && !input.includes('#')) {
    const query = input.slice(at + 1);
    const credential = [...new URLSearchParams(query).keys()].find(isCredentialName);
    if (credential !== undefined)
      return fail(
        `has the query parameter "${credential}", which looks like a credential: ` +
          'a key never goes in a URL',
      );
    const check = checkSubPath(input.slice(0, at));
    return check.ok ? { ...check, query: query === '' ? undefined : query } : check;
  }
  if (/[\u0000-\u001f\u007f]/.test(input))
    return fail('contains a control character (a URL parser drops tabs and newlines)');
  if (input.includes('\\')) return fail('contains a backslash (URL parsers read it as "/")');
  if (/^[a-z][a-z0-9+.-]*:/i.test(input))
    return fail('is an absolute URL: give a path relative to {base_url}');
  if (input.includes('//'))
    return fail('contains "//" (an empty segment, or another host when leading)');
  if (/[?#]/.test(input)) return fail('carries a query or fragment');
  if (/%(?:25)?(?:2f|5c)/i.test(input))
    return fail('contains an encoded "/" or "\\" (%2F, %5C), which some servers decode');
  const path = input.startsWith('/') ? input : `/${input}`;
  if (path.split('/').some(isDotSegment))
    return fail(
      'contains a "." or ".." segment (also as %2E, or before a ";"), which would leave the path',
    );
  if (path === BASE_PATH || path.startsWith(`${BASE_PATH}/`))
    return fail(`starts with ${BASE_PATH}: give the path relative to {base_url}`);
  return { ok: true, path };
}

/** The last net: after URL parsing, the path must stay on the origin and below `prefix`. */
export function staysInside(base: URL, path: string, prefix = '/'): boolean {
  const root = base.pathname.replace(/\/+$/, '');
  try {
    const url = new URL(`${base.origin}${root}${path}`);
    return url.origin === base.origin && url.pathname.startsWith(`${root}${prefix}`);
  } catch {
    return false;
  }
}

/**
 * `endpoint` is undefined for a path the spec does not show (`/tenants/x/repairs/17`): keyed, any
 * `data`.
 */
export interface Route {
  readonly endpoint: EndpointId | undefined;
  readonly tenant: string | undefined;
  readonly sendKey: boolean;
}

const PUBLIC: ReadonlySet<EndpointId> = new Set(
  ENDPOINTS.filter((e) => e.access === 'public').map((e) => e.id),
);

export function routeOf(path: string): Route {
  const route = (id?: EndpointId, tenant?: string): Route => ({
    endpoint: id,
    tenant,
    sendKey: id === undefined || !PUBLIC.has(id),
  });
  if (path === '/') return route('index');
  if (path === '/docs' || path === '/docs/') return route('docs');
  if (path.startsWith('/platform/')) return route('platform');
  const match = /^\/tenants\/([^/]+)(?:\/([^/]+))?(\/.*)?$/.exec(path);
  if (!match) return route();
  const [, tenant = '', resource, rest] = match;
  const list =
    resource !== undefined && isTenantResource(resource) && (rest === undefined || rest === '/');
  return route(list ? resource : undefined, decoded(tenant));
}

/** Decoded (`rowery-łódź`) unless invalid or showing a `/` or a control character. */
function decoded(segment: string): string {
  try {
    const text = decodeURIComponent(segment);
    return /[/\u0000-\u001f\u007f-\u009f]/.test(text) ? segment : text;
  } catch {
    return segment;
  }
}

/** For messages: each segment as written. */
export const readable = (path: string): string => path.split('/').map(decoded).join('/');
