/** Following `Link: rel="next"`: the RFC 8288 parser, MockAgent units, and a real HTTP server. */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, nextStep } from '../../../api/client/index.js';
import { type Page, checkNextLink, isPaginationError, nextLink, paginate } from '../../../api/client/paginate.js';
import { BASE_URL, KEY, SECRET, envelopeOk, mockAgent } from './helpers.js';

const REPAIRS = '/api/v1/tenants/rowery-nowak/repairs';
const agents: Array<{ close(): Promise<void> }> = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

function setup() {
  const { agent, pool } = mockAgent();
  agents.push(agent);
  const client = createClient({ baseUrl: BASE_URL, apiKey: KEY, tenant: 'rowery-nowak', dispatcher: agent, logLevel: 'silent' });
  const sent: string[] = [];
  const page = (path: string, items: unknown[], link?: string) =>
    pool.intercept({ path }).reply(
      200,
      () => {
        sent.push(path);
        return envelopeOk(items);
      },
      { headers: link === undefined ? {} : { link } },
    );
  return { client, sent, page };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

async function failure(iterable: AsyncIterable<unknown>): Promise<unknown> {
  return collect(iterable).then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe('Link header (RFC 8288)', () => {
  it('splits link-values only outside <> and quotes, reads rel case-blind, the first rel of a link counts', () => {
    const header =
      '<https://a.test/x?p=1,2;3>; rel="next last"; title="a, b; c", <https://a.test/y>;rel=prev;rel=next, garbage, </z>; REL=Next';
    expect(nextLink(header)).toBe('https://a.test/x?p=1,2;3');
    expect(nextLink('<https://a.test/y>;rel=prev;rel=next, garbage, </z>; REL=Next')).toBe('/z');
    expect(nextLink('<u>; title="say \\"hi, there\\""; rel=next')).toBe('u');
  });

  it('is tolerant: no rel, an unterminated link, empty input', () => {
    expect(nextLink('<u>')).toBeUndefined();
    expect(nextLink('<unterminated; rel=next')).toBeUndefined();
    expect(nextLink('')).toBeUndefined();
    expect(nextLink(undefined)).toBeUndefined();
  });

  it('checkNextLink resolves relative links against the page URL and refuses what leaves it', () => {
    const base = new URL('https://api.test/api/v1');
    const page = new URL('https://api.test/api/v1/tenants/t/repairs?page=1');
    const ok = (link: string) => {
      const next = checkNextLink(link, page, base, '/tenants/t/repairs');
      return next.ok ? { path: next.path, query: next.query } : next;
    };
    expect(ok('?page=2')).toEqual({ path: '/tenants/t/repairs', query: 'page=2' });
    expect(ok('repairs?cursor=a%2Cb')).toEqual({ path: '/tenants/t/repairs', query: 'cursor=a%2Cb' });
    expect(ok('/api/v1/tenants/t/repairs')).toEqual({ path: '/tenants/t/repairs', query: '' });
    expect(ok('http://api.test/api/v1/tenants/t/repairs?page=2')).toMatchObject({ ok: false, problem: 'off_origin' });
    expect(ok('https://api.test:8443/api/v1/x')).toMatchObject({ ok: false, problem: 'off_origin' });
    expect(ok('/api/v2/tenants/t/repairs')).toMatchObject({ ok: false, problem: 'outside_base_path' });
    expect(ok('/api/v1/../admin')).toMatchObject({ ok: false, problem: 'outside_base_path' });
    expect(ok('/api/v1/tenants/t%2F..%2Fx/repairs')).toMatchObject({ ok: false, problem: 'unsafe_link' });
    expect(ok('/api/v1/tenants/t/..;/x')).toMatchObject({ ok: false, problem: 'unsafe_link' });
    expect(ok('https://u:p@api.test/api/v1/x')).toMatchObject({ ok: false, problem: 'unsafe_link' });
    expect(ok('?page=2&api_key=x')).toMatchObject({ ok: false, problem: 'unsafe_link' });
  });

  it('checkNextLink stays on the resource: another resource or tenant, or dots and backslashes leading there, is other_resource', () => {
    const base = new URL('https://api.test/api/v1');
    const page = new URL('https://api.test/api/v1/tenants/x/repairs');
    const problem = (link: string) => {
      const next = checkNextLink(link, page, base, '/tenants/x/repairs');
      return next.ok ? next.path : `${next.problem}: ${next.detail}`;
    };
    // The link, then one more level up: the URL parser resolves %2e%2e and backslashes.
    expect(problem('/api/v1/tenants/x/repairs/%2e%2e/%2e%2e/platform/keys')).toBe(
      'other_resource: the next link leads to /tenants/platform/keys, not /tenants/x/repairs',
    );
    expect(problem('/api/v1/tenants/x/repairs/%2E%2E/%2E%2E/%2E%2E/platform/keys')).toBe(
      'other_resource: the next link leads to /platform/keys, not /tenants/x/repairs',
    );
    expect(problem('/api/v1/tenants/x/repairs\\..\\..\\..\\platform\\keys')).toMatch(/^other_resource: .* \/platform\/keys,/);
    expect(problem('/api/v1/tenants/y/repairs?page=2')).toBe(
      'other_resource: the next link leads to /tenants/y/repairs, not /tenants/x/repairs',
    );
    expect(problem('/api/v1/tenants/x/bikes')).toMatch(/^other_resource/);
    expect(problem('/api/v1/tenants/x/repairs/17')).toMatch(/^other_resource/);
    expect(problem('/api/v1/tenants/x/repairs/%2e%2e/repairs?page=2')).toBe('/tenants/x/repairs');
    expect(problem('/api/v1/tenants/x/repairs/?page=2')).toBe('/tenants/x/repairs/');
  });
});

describe('paginate (MockAgent)', () => {
  it('without a Link header yields the one page', async () => {
    const { client, page, sent } = setup();
    page(REPAIRS, [1, 2]);
    expect(await collect(paginate(client, 'repairs'))).toEqual([1, 2]);
    expect(sent).toEqual([REPAIRS]);
  });

  it('follows rel="next" across pages with the caller’s query first, then the server’s; pages() gives each response', async () => {
    const { client, page, sent } = setup();
    page(`${REPAIRS}?status=gotowa`, [1, 2], '<http://api.test/api/v1/tenants/rowery-nowak/repairs?status=gotowa&page=2>; rel="next"');
    page(`${REPAIRS}?status=gotowa&page=2`, [3], '</api/v1/tenants/rowery-nowak/repairs?status=gotowa&page=3>; rel=next, <x>; rel=prev');
    page(`${REPAIRS}?status=gotowa&page=3`, [4]);
    const pages: Array<Page<unknown>> = await collect(paginate(client, 'repairs', { query: { status: 'gotowa' } }).pages());
    expect(pages.map((p) => [p.number, p.items, p.response.status])).toEqual([
      [1, [1, 2], 200],
      [2, [3], 200],
      [3, [4], 200],
    ]);
    expect(sent).toHaveLength(3);
  });

  it('checks items of every page with the parse hook', async () => {
    const { client, page } = setup();
    page(REPAIRS, [1], '<?page=2>; rel="next"');
    page(`${REPAIRS}?page=2`, ['two']);
    const error = await failure(paginate(client, 'repairs', { parse: (v: unknown): v is number => typeof v === 'number' }));
    expect(error).toMatchObject({ name: 'ParseError', kind: 'parse_failed', index: 0, path: '/tenants/rowery-nowak/repairs' });
  });

  it.each([
    ['another origin', '<http://evil.test/api/v1/tenants/rowery-nowak/repairs?page=2>; rel="next"', 'off_origin'],
    ['https downgraded to another scheme', '<https://api.test/api/v1/tenants/rowery-nowak/repairs>; rel="next"', 'off_origin'],
    ['outside the base path', '</other/tenants/rowery-nowak/repairs>; rel="next"', 'outside_base_path'],
    ['a credential in the query', '<?page=2&token=abc>; rel="next"', 'unsafe_link'],
  ])('refuses a next link to %s, after the first page, sending nothing more', async (_name, link, problem) => {
    const { client, page, sent } = setup();
    page(REPAIRS, [1], link);
    const items: unknown[] = [];
    const error = await (async () => {
      for await (const item of paginate(client, 'repairs')) items.push(item);
    })().catch((e: unknown) => e);
    expect(items).toEqual([1]);
    expect(isPaginationError(error) && error.problem).toBe(problem);
    expect(isPaginationError(error) && error.pages).toBe(1);
    expect(nextStep(error).kind).toBe('investigate');
    expect(sent).toEqual([REPAIRS]);
  });

  it('detects a loop (a link back to a page already read) and stops at maxPages', async () => {
    const { client, page } = setup();
    page(REPAIRS, [1], '<?page=2>; rel="next"');
    page(`${REPAIRS}?page=2`, [2], '<repairs>; rel="next"');
    const loop = await failure(paginate(client, 'repairs'));
    expect(isPaginationError(loop) && [loop.problem, loop.pages]).toEqual(['loop', 2]);
    expect((loop as Error).message).toMatch(/pagination stopped after 2 page\(s\): the next link points to a page already read/);

    page(REPAIRS, [1], '<?page=2>; rel="next"');
    page(`${REPAIRS}?page=2`, [2], '<?page=3>; rel="next"');
    const capped = await failure(paginate(client, 'repairs', { maxPages: 2 }));
    expect(isPaginationError(capped) && capped.problem).toBe('page_cap');
    expect((capped as Error).message).toMatch(/raise maxPages/);
  });

  it('option errors surface on iteration: no tenant, a bad maxPages, a credential query', async () => {
    const { client } = setup();
    await expect(failure(paginate(client, 'clients', { tenant: '..' }))).resolves.toMatchObject({
      message: expect.stringMatching(/"tenant"/),
    });
    await expect(failure(paginate(client, 'clients', { maxPages: 0 }))).resolves.toMatchObject({
      message: expect.stringMatching(/"maxPages"/),
    });
    await expect(failure(paginate(client, 'clients', { query: { api_key: SECRET } }))).resolves.toMatchObject({
      message: expect.stringMatching(/looks like a credential/),
    });
    await expect(failure(paginate(createClient({ baseUrl: BASE_URL, apiKey: KEY }), 'clients'))).resolves.toMatchObject({
      message: expect.stringMatching(/no tenant/),
    });
  });
});

interface Seen {
  readonly url: string;
  readonly auth: string | undefined;
}

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ origin: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', auth: req.headers.authorization });
    handler(req, res);
  });
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen })),
  );
}

function json(res: ServerResponse, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

describe('paginate over real HTTP', () => {
  it('reads every page a node:http server links, with the key on each, and stops at the last', async () => {
    const { origin, seen } = await listen((req, res) => {
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1');
      const next: Record<string, string> =
        page < 3 ? { link: `</api/v1/tenants/rowery-nowak/repairs?page=${page + 1}&per_page=2>; rel="next"` } : {};
      json(res, envelopeOk([`r${page * 2 - 1}`, `r${page * 2}`]), next);
    });
    const client = createClient({ baseUrl: `${origin}/api/v1`, apiKey: KEY, tenant: 'rowery-nowak', logLevel: 'silent' });
    try {
      expect(await collect(paginate<string>(client, 'repairs'))).toEqual(['r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
      expect(seen.map((s) => s.url)).toEqual([
        '/api/v1/tenants/rowery-nowak/repairs',
        '/api/v1/tenants/rowery-nowak/repairs?page=2&per_page=2',
        '/api/v1/tenants/rowery-nowak/repairs?page=3&per_page=2',
      ]);
      expect(seen.every((s) => s.auth === `Bearer ${SECRET}`)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('the issue\'s link to /platform/keys on the same origin is refused: nothing read there, no "repairs" from it', async () => {
    const { origin, seen } = await listen((req, res) =>
      req.url === '/api/v1/tenants/rowery-nowak/repairs'
        ? json(res, envelopeOk(['r1']), { link: '</api/v1/tenants/rowery-nowak/repairs/%2e%2e/%2e%2e/%2e%2e/platform/keys>; rel="next"' })
        : json(res, envelopeOk(['a platform key'])),
    );
    const client = createClient({ baseUrl: `${origin}/api/v1`, apiKey: KEY, tenant: 'rowery-nowak', logLevel: 'silent' });
    try {
      const items: unknown[] = [];
      const error = await (async () => {
        for await (const item of paginate(client, 'repairs')) items.push(item);
      })().catch((e: unknown) => e);
      expect(items).toEqual(['r1']);
      expect(isPaginationError(error) && [error.kind, error.problem]).toEqual(['pagination_stopped', 'other_resource']);
      expect((error as Error).message).toContain('the next link leads to /platform/keys, not /tenants/rowery-nowak/repairs');
      expect(seen.map((s) => s.url)).toEqual(['/api/v1/tenants/rowery-nowak/repairs']);
    } finally {
      await client.close();
    }
  });

  it('never sends the key to another origin a next link names', async () => {
    const other = await listen((_req, res) => json(res, envelopeOk(['stolen'])));
    const { origin } = await listen((_req, res) =>
      json(res, envelopeOk(['r1']), { link: `<${other.origin}/api/v1/tenants/rowery-nowak/repairs?page=2>; rel="next"` }),
    );
    const client = createClient({ baseUrl: `${origin}/api/v1`, apiKey: KEY, tenant: 'rowery-nowak', logLevel: 'silent' });
    try {
      const error = await failure(paginate(client, 'repairs'));
      expect(isPaginationError(error) && error.problem).toBe('off_origin');
      expect(other.seen).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
