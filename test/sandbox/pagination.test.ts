/** `--page-size`: list answers in pages with a `Link: <...>; rel="next"` header; off, the query is never read. */
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { authHeader, parseEnvelope } from '../../api/contract/index.js';
import { nextLink, requestedPage, slicePage } from '../../sandbox/pagination.js';
import { type RunningSandbox, startSandbox } from '../../sandbox/index.js';

async function get(sandbox: RunningSandbox, url: string, alias = 'nowak-test') {
  const h = authHeader('bearer', sandbox.key(alias).key);
  const res = await request(url, { headers: { [h.name]: h.value } });
  const envelope = parseEnvelope(await res.body.text());
  return { status: res.statusCode, link: res.headers['link'], envelope };
}

const items = (r: Awaited<ReturnType<typeof get>>): unknown[] =>
  r.envelope.valid && r.envelope.envelope.ok ? (r.envelope.envelope.data as unknown[]) : [];

describe('pagination, pure', () => {
  it('reads the page number strictly', () => {
    expect(requestedPage('/x')).toEqual({ ok: true, page: 1 });
    expect(requestedPage('/x?page=3&other=1')).toEqual({ ok: true, page: 3 });
    for (const raw of ['0', '-1', '1.5', 'two', '']) expect(requestedPage(`/x?page=${raw}`)).toEqual({ ok: false, raw });
  });

  it('slices and names the next page only while there is one', () => {
    expect(slicePage([1, 2, 3, 4, 5], 1, 2)).toEqual({ items: [1, 2], next: 2 });
    expect(slicePage([1, 2, 3, 4, 5], 3, 2)).toEqual({ items: [5], next: undefined });
    expect(slicePage([1, 2, 3, 4], 2, 2)).toEqual({ items: [3, 4], next: undefined });
    expect(slicePage([1], 9, 2)).toEqual({ items: [], next: undefined });
    expect(nextLink('https://h:1', '/api/v1/tenants/t/bikes', 2)).toBe('<https://h:1/api/v1/tenants/t/bikes?page=2>; rel="next"');
  });
});

describe('startSandbox({ pageSize })', () => {
  it('pages a list by following Link rel="next" to the whole list, and leaves other answers alone', async () => {
    const whole = await startSandbox();
    const paged = await startSandbox({ pageSize: 2 });
    try {
      const all = items(await get(whole, `${whole.baseUrl}/tenants/rowery-nowak/repairs`));
      expect(all.length).toBeGreaterThan(2);
      const seen: unknown[] = [];
      let url: string | undefined = `${paged.baseUrl}/tenants/rowery-nowak/repairs`;
      let pages = 0;
      while (url !== undefined) {
        const page = await get(paged, url);
        expect(page.status).toBe(200);
        expect(items(page).length).toBeLessThanOrEqual(2);
        seen.push(...items(page));
        pages += 1;
        url = typeof page.link === 'string' ? /^<([^>]+)>; rel="next"$/.exec(page.link)?.[1] : undefined;
        if (url) expect(url.startsWith(`${paged.baseUrl}/tenants/rowery-nowak/repairs?page=`)).toBe(true);
      }
      expect(pages).toBe(Math.ceil(all.length / 2));
      expect(seen).toEqual(all);
      const docs = await request(`${paged.baseUrl}/docs`);
      expect(docs.headers['link']).toBeUndefined();
      await docs.body.dump();
      const refused = await get(paged, `${paged.baseUrl}/tenants/serwis-kowalski/repairs`);
      expect([refused.status, refused.link]).toEqual([403, undefined]);
    } finally {
      await Promise.all([whole.close(), paged.close()]);
    }
  });

  it('a bad page number is a 400 bad_request envelope; without pageSize the query is ignored as before', async () => {
    const paged = await startSandbox({ pageSize: 2 });
    const whole = await startSandbox();
    try {
      const bad = await get(paged, `${paged.baseUrl}/tenants/rowery-nowak/clients?page=zero`);
      expect(bad.status).toBe(400);
      expect(bad.envelope.valid && !bad.envelope.envelope.ok && bad.envelope.envelope.error.code).toBe('bad_request');
      const ignored = await get(whole, `${whole.baseUrl}/tenants/rowery-nowak/clients?page=zero`);
      expect([ignored.status, ignored.link]).toEqual([200, undefined]);
      expect(items(ignored)).toEqual(items(await get(whole, `${whole.baseUrl}/tenants/rowery-nowak/clients`)));
    } finally {
      await Promise.all([whole.close(), paged.close()]);
    }
  });

  it('refuses a page size that is not a whole number from 1', async () => {
    for (const pageSize of [0, 1.5, -3]) await expect(startSandbox({ pageSize })).rejects.toThrow(/must be a whole number from 1/);
  });
});
