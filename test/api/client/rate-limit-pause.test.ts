/**
 * The client-wide 429 pause over real HTTP (issue 31, finding 5): a 429 whose hint the client
 * refuses as too long (`retry-after-ms` of 400 digits) fails that call and pauses no other; a
 * hint it accepts pauses every call, and `clearRateLimitPause()` ends that pause at once.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, isRateLimitError } from '../../../api/client/index.js';
import { KEY, envelopeError, envelopeOk } from './helpers.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A server answering 429 with `hints[path]` as `retry-after-ms` where one is given, the rest 200. */
async function listen(hints: Record<string, string>): Promise<{ baseUrl: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? '';
    seen.push(path);
    const hint = hints[path];
    const status = hint === undefined ? 200 : 429;
    res.writeHead(status, { 'content-type': 'application/json', ...(hint === undefined ? {} : { 'retry-after-ms': hint }) });
    res.end(JSON.stringify(hint === undefined ? envelopeOk([]) : envelopeError('rate_limited', 'Za dużo zapytań')));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, seen };
}

const failure = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('the 429 pause over real HTTP', () => {
  it('a hint refused as too long fails its call at once and pauses no later call, any tenant or path', async () => {
    const absurd = '9'.repeat(400);
    const { baseUrl, seen } = await listen({ '/api/v1/tenants/rowery-nowak/clients': absurd });
    const client = createClient({ baseUrl, apiKey: KEY, tenant: 'rowery-nowak', logLevel: 'silent' });
    try {
      const refused = await failure(client.list('clients'));
      expect(isRateLimitError(refused) && refused.stopReason).toBe('hint_above_max');
      expect(await client.list('bikes')).toEqual([]);
      expect(await client.list('repairs', { tenant: 'serwis-kowalski' })).toEqual([]);
      expect(seen).toEqual([
        '/api/v1/tenants/rowery-nowak/clients',
        '/api/v1/tenants/rowery-nowak/bikes',
        '/api/v1/tenants/serwis-kowalski/repairs',
      ]);
    } finally {
      await client.close();
    }
  });

  it('a hint it accepts pauses every call; clearRateLimitPause() lets the next one go at once', async () => {
    const { baseUrl, seen } = await listen({ '/api/v1/tenants/rowery-nowak/clients': '20000' });
    const client = createClient({ baseUrl, apiKey: KEY, tenant: 'rowery-nowak', logLevel: 'silent' });
    try {
      await failure(client.list('clients', { maxRetries: 0 }));
      // A call with less time than the pause fails without sending.
      const paused = await failure(client.list('bikes', { totalTimeoutMs: 2_000 }));
      expect(isRateLimitError(paused) && paused.stopReason).toBe('gate_wait_too_long');
      client.clearRateLimitPause();
      expect(await client.list('bikes', { totalTimeoutMs: 2_000 })).toEqual([]);
      expect(seen).toEqual(['/api/v1/tenants/rowery-nowak/clients', '/api/v1/tenants/rowery-nowak/bikes']);
    } finally {
      await client.close();
    }
  });
});
