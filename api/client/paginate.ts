/**
 * Following `Link: <...>; rel="next"` (RFC 8288) when the server sends one; the spec shows no
 * pagination, so without the header the one page is all there is. The key goes with every
 * page, so a next link is followed only when it stays on the base URL's origin and below its
 * path, carries no credential-like query parameter, and has not been read before; and at most
 * `maxPages` pages are read. Anything else stops with a `PaginationError` saying why.
 */
import { type ApiResponse, responseOf } from './api-promise.js';
import type { Call } from './call.js';
import type { PaginationError, PaginationProblem } from './errors.js';
import { nextLinkTarget } from './link-header.js';
import { checkSubPath } from './path-guard.js';
import { type EncodedQuery, isCredentialName, queryNames } from './query.js';

export interface Page<T> {
  readonly items: readonly T[];
  readonly response: ApiResponse;
  /** 1 for the first page. */
  readonly number: number;
}

/** Iterate items with `for await`, or whole pages with `.pages()`. Nothing is sent until iteration starts. */
export interface Paginated<T> extends AsyncIterable<T> {
  pages(): AsyncIterableIterator<Page<T>>;
}

/** Where a page is read: a path relative to `{base_url}` and its encoded query. */
export interface PageTarget {
  readonly path: string;
  readonly query: EncodedQuery | undefined;
}

export type NextCheck = { readonly ok: true; readonly target: PageTarget } | { readonly ok: false; readonly problem: PaginationProblem; readonly detail: string };

function urlOf(base: URL, target: PageTarget): URL {
  const root = base.pathname.replace(/\/+$/, '');
  return new URL(`${base.origin}${root}${target.path}${target.query === undefined ? '' : `?${target.query}`}`);
}

/** Resolves a next link against the page's URL and decides whether the key may follow it. Pure. */
export function checkNextLink(link: string, current: PageTarget, base: URL): NextCheck {
  const refuse = (problem: PaginationProblem, detail: string): NextCheck => ({ ok: false, problem, detail });
  let url: URL;
  try {
    url = new URL(link, urlOf(base, current));
  } catch {
    return refuse('unsafe_link', 'the next link is not a URL');
  }
  if (url.origin !== base.origin) return refuse('off_origin', `the next link points to ${url.origin}, not ${base.origin}; the key is never sent to another origin`);
  if (url.username !== '' || url.password !== '') return refuse('unsafe_link', 'the next link carries credentials');
  const root = base.pathname.replace(/\/+$/, '');
  if (!url.pathname.startsWith(`${root}/`)) return refuse('outside_base_path', `the next link leaves ${root}/`);
  const sub = checkSubPath(url.pathname.slice(root.length));
  if (!sub.ok) return refuse('unsafe_link', `the next link's path ${sub.reason}`);
  const credential = queryNames(url.search).find(isCredentialName);
  if (credential !== undefined) return refuse('unsafe_link', `the next link's query has "${credential}", which looks like a credential`);
  // The server's query is sent as it encoded it; its names were checked just above.
  const query = url.search.length > 1 ? (url.search.slice(1) as EncodedQuery) : undefined;
  return { ok: true, target: { path: sub.path, query } };
}

export interface PaginationPlan {
  readonly base: URL;
  /** Checks the options and names the first page; called when iteration starts, so its errors surface there. */
  readonly start: () => { readonly first: PageTarget; readonly maxPages: number };
  readonly fetch: (target: PageTarget) => Promise<{ readonly items: readonly unknown[]; readonly call: Call }>;
  readonly fail: (call: Call, problem: PaginationProblem, detail: string, link: string | undefined, pages: number) => PaginationError;
}

const keyOf = (target: PageTarget): string => `${target.path}?${target.query ?? ''}`;

async function* pagesOf<T>(plan: PaginationPlan): AsyncGenerator<Page<T>, void, undefined> {
  const seen = new Set<string>();
  const { first, maxPages } = plan.start();
  let target = first;
  for (let number = 1; ; number += 1) {
    seen.add(keyOf(target));
    const { items, call } = await plan.fetch(target);
    yield { items: items as readonly T[], response: responseOf(call), number };
    const link = nextLinkTarget(call.response?.headers['link']);
    if (link === undefined) return;
    if (number >= maxPages) throw plan.fail(call, 'page_cap', `more pages follow page ${number} (maxPages ${maxPages}); raise maxPages or narrow the query`, link, number);
    const next = checkNextLink(link, target, plan.base);
    if (!next.ok) throw plan.fail(call, next.problem, next.detail, link, number);
    if (seen.has(keyOf(next.target))) throw plan.fail(call, 'loop', 'the next link points to a page already read', link, number);
    target = next.target;
  }
}

export function paginate<T>(plan: PaginationPlan): Paginated<T> {
  return {
    pages: () => pagesOf<T>(plan),
    async *[Symbol.asyncIterator]() {
      for await (const page of pagesOf<T>(plan)) yield* page.items;
    },
  };
}
