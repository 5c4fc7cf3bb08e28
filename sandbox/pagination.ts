/**
 * `--page-size N`: list answers in pages, with the next page's address in a `Link` header
 * (RFC 8288, `rel="next"`), so a client can be tested paging through them. Pure: it rewrites
 * a successful list reply of `decide`; everything else passes untouched. With no page size the
 * sandbox never reads a query string, exactly as without this module.
 */
import type { IncomingMessage } from 'node:http';
import { ERROR_CODES } from '../api/contract/index.js';
import { successEnvelope } from '../api/contract/server/index.js';
import { type Reply, fail } from './decide.js';

/**
 * ASSUMPTION (the sandbox's reading): pagination is "not shown" by the spec. Pages are
 * numbered from 1 in the `page` query parameter, and only the next page is linked.
 */
const PAGE_PARAM = 'page';
export const MAX_PAGE_SIZE = 10_000;

/** The page asked for in a request target's query; page 1 when none is given. */
export function requestedPage(target: string | undefined): { ok: true; page: number } | { ok: false; raw: string } {
  const query = target?.includes('?') ? (target.slice(target.indexOf('?') + 1).split('#')[0] ?? '') : '';
  const raw = new URLSearchParams(query).get(PAGE_PARAM);
  if (raw === null) return { ok: true, page: 1 };
  return /^[1-9]\d{0,8}$/.test(raw) ? { ok: true, page: Number(raw) } : { ok: false, raw };
}

export function slicePage(items: readonly unknown[], page: number, pageSize: number): { items: unknown[]; next: number | undefined } {
  const start = (page - 1) * pageSize;
  const end = start + pageSize;
  return { items: items.slice(start, end), next: end < items.length ? page + 1 : undefined };
}

/** `<https://host/api/v1/tenants/x/clients?page=2>; rel="next"` for the path asked. */
export function nextLink(origin: string, pathname: string, next: number): string {
  return `<${origin}${pathname}?${PAGE_PARAM}=${next}>; rel="next"`;
}

/** A Host header fit to go into a URL; anything else falls back to the sandbox's own address. */
const PLAIN_HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

/**
 * The server's hook (`shape`): a list reply cut to one page with its `Link`, a bad page number
 * refused, any other reply as it was; `ownHost` is `host:port` as listening.
 */
export function pagingShape(pageSize: number, scheme: 'http' | 'https', ownHost: () => string) {
  return (reply: Reply, req: IncomingMessage, pathname: string | undefined): Reply => {
    if (pathname === undefined || reply.status !== 200 || !reply.envelope.ok || !Array.isArray(reply.envelope.data)) return reply;
    const asked = requestedPage(req.url);
    if (!asked.ok) {
      const detail = `Parametr ${PAGE_PARAM} musi być liczbą całkowitą od 1, otrzymano "${asked.raw.slice(0, 40)}".`;
      return fail(ERROR_CODES.badRequest, detail, reply.headers, reply.keyAlias);
    }
    const page = slicePage(reply.envelope.data, asked.page, pageSize);
    const host = req.headers.host !== undefined && PLAIN_HOST.test(req.headers.host) ? req.headers.host : ownHost();
    const headers =
      page.next === undefined ? reply.headers : { ...reply.headers, link: nextLink(`${scheme}://${host}`, pathname, page.next) };
    return { ...reply, envelope: successEnvelope(page.items), headers };
  };
}
