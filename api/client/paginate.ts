/**
 * Opt-in (`yo repair-service --pagination`): following `Link: <...>; rel="next"` (RFC 8288) when
 * the server sends one. The spec shows no pagination, so without the header the one page is all
 * there is. The key goes with every page, so a next link is followed only when it stays on the
 * base URL's origin on the same resource (`/tenants/{tenant}/{resource}` once the URL parser has
 * resolved `%2e%2e` and `\`), carries no credential-like query parameter and has not been read
 * before, for at most `maxPages` pages; anything else stops with a `PaginationError`.
 */
import { type TenantResource, tenantResourcePath, validateTenantSlug } from '../contract/index.js';
import type { ApiResponse, CallOptions, RepairServiceClient } from './client.js';
import { ApiError, isApiError } from './errors.js';
import { type Validator, checkItems } from './parse.js';
import { checkSubPath, isCredentialName } from './paths.js';

export type PaginationProblem =
  'off_origin' | 'outside_base_path' | 'other_resource' | 'unsafe_link' | 'loop' | 'page_cap';

/**
 * Pagination stopped: `problem` says why, `link` is the refused next link (shortened), `pages` the
 * pages read.
 */
export class PaginationError extends ApiError {
  declare readonly problem: PaginationProblem;
  declare readonly link: string | undefined;
  declare readonly pages: number;
}

export const isPaginationError = (value: unknown): value is PaginationError =>
  isApiError(value) && value.kind === 'pagination_stopped';

export interface Page<T> {
  readonly items: readonly T[];
  readonly response: ApiResponse;
  /** 1 for the first page. */
  readonly number: number;
}

/** Items with `for await`, whole pages with `.pages()`; nothing is sent until iteration starts. */
export interface Paginated<T> extends AsyncIterable<T> {
  pages(): AsyncIterableIterator<Page<T>>;
}

export interface PaginateOptions<T> extends CallOptions {
  /** The client's tenant when not given. */
  readonly tenant?: string;
  /** The first page's query (the following pages' comes with the server's next link). */
  readonly query?: URLSearchParams | Readonly<Record<string, string>>;
  /** Checks (and may transform) every item (see parse.ts). */
  readonly parse?: Validator<T>;
  /** Pages read before stopping with a PaginationError (`page_cap`); default 100. */
  readonly maxPages?: number;
}

/**
 * The target of the first `rel="next"` link; commas and semicolons inside `<>` or quotes do not
 * split.
 */
export function nextLink(header: string | undefined): string | undefined {
  for (const value of (header ?? '').match(/<[^>]*>(?:[^,"]|"(?:\\.|[^"\\])*")*/g) ?? []) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(value);
    if ((rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/).includes('next'))
      return value.slice(1, value.indexOf('>')).trim();
  }
  return undefined;
}

type Next =
  | { readonly ok: true; readonly path: string; readonly query: string }
  | { readonly ok: false; readonly problem: PaginationProblem; readonly detail: string };

/**
 * Where a next link leads, resolved against the page it came with, or why the key may not follow
 * it (`resourcePath`: the page's own resource, which the link must stay on).
 */
export function checkNextLink(link: string, pageUrl: URL, base: URL, resourcePath: string): Next {
  const refuse = (problem: PaginationProblem, detail: string): Next => ({
    ok: false,
    problem,
    detail,
  });
  let url: URL;
  try {
    url = new URL(link, pageUrl);
  } catch {
    return refuse('unsafe_link', 'the next link is not a URL');
  }
  if (url.origin !== base.origin)
    return refuse(
      'off_origin',
      `the next link points to ${url.origin}, not ${base.origin}; ` +
        'the key is never sent to another origin',
    );
  if (url.username !== '' || url.password !== '')
    return refuse('unsafe_link', 'the next link carries credentials');
  const root = base.pathname.replace(/\/+$/, '');
  if (!url.pathname.startsWith(`${root}/`))
    return refuse('outside_base_path', `the next link leaves ${root}/`);
  const sub = checkSubPath(url.pathname.slice(root.length));
  if (!sub.ok) return refuse('unsafe_link', `the next link's path ${sub.reason}`);
  // The key reads more than this resource (`.../repairs/%2e%2e/%2e%2e/platform/keys`): stay on it.
  if (sub.path.replace(/\/+$/, '') !== resourcePath)
    return refuse('other_resource', `the next link leads to ${sub.path}, not ${resourcePath}`);
  const credential = [...url.searchParams.keys()].find(isCredentialName);
  if (credential !== undefined)
    return refuse(
      'unsafe_link',
      `the next link's query has "${credential}", which looks like a credential`,
    );
  return { ok: true, path: sub.path, query: url.search.slice(1) };
}

function stop(
  client: RepairServiceClient,
  response: ApiResponse,
  detail: string,
  fields: { problem: PaginationProblem; link?: string; pages: number },
): ApiError {
  const { path, status, requestId, attempts } = response;
  const message = `GET ${path}: pagination stopped after ${fields.pages} page(s): ${detail}`;
  const host = new URL(client.baseUrl).host;
  return new PaginationError({
    kind: 'pagination_stopped',
    message,
    method: 'GET',
    path,
    host,
    keyAlias: client.keyAlias,
    status,
    requestId,
    attempts,
    ...fields,
  });
}

async function* pagesOf<T>(
  client: RepairServiceClient,
  resource: TenantResource,
  options: PaginateOptions<T>,
): AsyncGenerator<Page<T>> {
  const maxPages = options.maxPages ?? 100;
  if (!(Number.isInteger(maxPages) && maxPages >= 1))
    throw new TypeError(`option "maxPages" must be an integer >= 1, got ${String(maxPages)}`);
  const base = new URL(client.baseUrl);
  const check = options.parse === undefined ? undefined : checkItems(options.parse);
  const { parse: _parse, maxPages: _max, tenant = client.tenant, query, ...call } = options;
  if (tenant === undefined)
    throw new TypeError(
      `${resource}: no tenant: pass { tenant } or set the client's "tenant" option`,
    );
  const slug = validateTenantSlug(tenant);
  if (!slug.ok) throw new TypeError(`option "tenant" ${JSON.stringify(tenant)} ${slug.reason}`);
  const own = tenantResourcePath(tenant, resource);
  const first = `${own}${query === undefined ? '' : `?${new URLSearchParams(query).toString()}`}`;
  let page = await client.get(first, call).withResponse();
  const seen = new Set<string>();
  for (let number = 1; ; number += 1) {
    const { response } = page;
    const query = response.query ? `?${response.query}` : '';
    const pageUrl = new URL(`${base.href.replace(/\/+$/, '')}${response.path}${query}`);
    seen.add(pageUrl.href);
    if (!Array.isArray(page.data))
      throw stop(client, response, 'the next page is not a list', {
        problem: 'unsafe_link',
        pages: number - 1,
      });
    const items = check ? check(page.data, response) : (page.data as T[]);
    yield { items, response, number };
    const link = nextLink(response.headers['link']);
    if (link === undefined) return;
    const shown = { link: link.length > 300 ? `${link.slice(0, 299)}…` : link, pages: number };
    if (number >= maxPages)
      throw stop(
        client,
        response,
        `more pages follow page ${number} (maxPages ${maxPages}); ` +
          'raise maxPages or narrow the query',
        {
          problem: 'page_cap',
          ...shown,
        },
      );
    const next = checkNextLink(link, pageUrl, base, own);
    if (!next.ok) throw stop(client, response, next.detail, { problem: next.problem, ...shown });
    if (seen.has(new URL(link, pageUrl).href))
      throw stop(client, response, 'the next link points to a page already read', {
        problem: 'loop',
        ...shown,
      });
    // The server's query goes as it wrote it; credential-like names are refused by the query check.
    page = await client
      .get(next.query === '' ? next.path : `${next.path}?${next.query}`, call)
      .withResponse();
  }
}

/** The items of every page of a tenant resource, `Link: rel="next"` followed when sent. */
export function paginate<T = unknown>(
  client: RepairServiceClient,
  resource: TenantResource,
  options: PaginateOptions<T> = {},
): Paginated<T> {
  return {
    pages: () => pagesOf<T>(client, resource, options),
    async *[Symbol.asyncIterator]() {
      for await (const page of pagesOf<T>(client, resource, options)) yield* page.items;
    },
  };
}
