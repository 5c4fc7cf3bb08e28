/**
 * One attempt's deadline against real HTTP servers on port 0: stalled headers, a trickling body
 * that keeps undici's idle body timeout happy, queueing for a pooled connection, the caller's
 * signal in both phases, attempts of different budgets side by side. No timing assertions: only
 * which phase and scope a timeout reports, and in which order calls end.
 */
import { type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { type AttemptFailure, type AttemptResult, sendAttempt } from '../../../api/client/attempt.js';
import { ApiKey, type RepairServiceClient, createClient, isTimeoutError } from '../../../api/client/index.js';
import { waitFor } from '../../helpers/rig.js';
import { SECRET } from './helpers.js';

const OK_BODY = JSON.stringify({ ok: true, data: [1] });
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `/ok` answers at once, `/stall-headers` never answers, `/trickle` sends a byte every 20 ms forever. */
async function server(): Promise<{ baseUrl: string; requests: string[] }> {
  const requests: string[] = [];
  const open = new Set<ServerResponse>();
  const timers = new Set<ReturnType<typeof setInterval>>();
  const srv: Server = createServer((req, res) => {
    const path = (req.url ?? '').replace('/api/v1', '');
    requests.push(path);
    open.add(res);
    res.on('close', () => open.delete(res));
    if (path.endsWith('/ok')) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(OK_BODY)) }).end(OK_BODY);
    } else if (path.endsWith('/trickle')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"ok":true,"data":[');
      const timer = setInterval(() => res.write(' '), 20);
      timers.add(timer);
      res.on('close', () => clearInterval(timer));
    }
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    for (const timer of timers) clearInterval(timer);
    for (const res of open) res.destroy();
    srv.closeAllConnections();
    await new Promise<void>((resolve) => srv.close(() => resolve()));
  });
  return { baseUrl: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/api/v1`, requests };
}

function agent(connections?: number): Agent {
  const made = new Agent(connections ? { connections } : {});
  cleanups.push(() => made.destroy());
  return made;
}

const key = new ApiKey(SECRET, 'nowak-test');

function attempt(dispatcher: Agent, baseUrl: string, path: string, timeoutMs: number, signal?: AbortSignal): Promise<AttemptResult> {
  return sendAttempt({ dispatcher, baseUrl, path, endpoint: 'clients', key, authScheme: 'bearer', timeoutMs, signal });
}

function failureOf(result: AttemptResult): AttemptFailure['failure'] | undefined {
  return result.kind === 'failure' ? result.failure : undefined;
}

describe('sendAttempt: one deadline over connect, headers and body', () => {
  it('stalled headers end as a headers-phase timeout', async () => {
    const { baseUrl } = await server();
    const result = await attempt(agent(), baseUrl, '/t/stall-headers', 80);
    expect(failureOf(result)).toMatchObject({ kind: 'timeout', phase: 'headers' });
  });

  it('a trickling body that never goes idle still ends at the attempt deadline, as a body-phase timeout', async () => {
    const { baseUrl } = await server();
    const result = await attempt(agent(), baseUrl, '/t/trickle', 1_000);
    expect(failureOf(result)).toMatchObject({ kind: 'timeout', phase: 'body' });
  });

  it('time queued for a pooled connection counts against the attempt', async () => {
    const { baseUrl, requests } = await server();
    const pool = agent(1);
    const blocker = attempt(pool, baseUrl, '/t/stall-headers', 1_000);
    // The blocker holds the one connection before the queued call starts, however slow the runner.
    await waitFor(() => requests.length === 1, { what: 'the blocking request at the server' });
    const queued = await attempt(pool, baseUrl, '/t/ok', 80);
    expect(failureOf(queued)).toMatchObject({ kind: 'timeout' });
    // It timed out while waiting: the server never saw it before the deadline.
    expect(requests).toEqual(['/t/stall-headers']);
    await blocker;
  });

  it('the caller’s signal aborts in the headers phase and in the body phase', async () => {
    const { baseUrl } = await server();
    const dispatcher = agent();
    const inHeaders = new AbortController();
    const headersRun = attempt(dispatcher, baseUrl, '/t/stall-headers', 5_000, inHeaders.signal);
    setTimeout(() => inHeaders.abort('stop-headers'), 30);
    expect(failureOf(await headersRun)).toMatchObject({ kind: 'aborted', reason: 'stop-headers' });
    const inBody = new AbortController();
    const bodyRun = attempt(dispatcher, baseUrl, '/t/trickle', 5_000, inBody.signal);
    setTimeout(() => inBody.abort('stop-body'), 60);
    expect(failureOf(await bodyRun)).toMatchObject({ kind: 'aborted', reason: 'stop-body' });
  });

  it('attempts side by side end in deadline order, whichever started first, and successes are left alone', async () => {
    const { baseUrl } = await server();
    const dispatcher = agent();
    const ended: string[] = [];
    const run = (name: string, path: string, timeoutMs: number): Promise<AttemptResult> =>
      sendAttempt({ dispatcher, baseUrl, path, endpoint: 'clients', key, authScheme: 'bearer', timeoutMs }).then((r) => {
        ended.push(name);
        return r;
      });
    const late = run('late', '/t/stall-headers', 3_000);
    const middle = run('middle', '/t/ok', 3_000);
    const early = run('early', '/t/trickle', 1_000);
    const fine = run('fine', '/t/ok', 3_000);
    const [lateResult, earlyResult, fineResult, middleResult] = await Promise.all([late, early, fine, middle]);
    expect(ended.slice(2)).toEqual(['early', 'late']);
    expect(middleResult).toMatchObject({ kind: 'response', status: 200 });
    expect(failureOf(earlyResult)).toMatchObject({ kind: 'timeout', phase: 'body' });
    expect(failureOf(lateResult)).toMatchObject({ kind: 'timeout', phase: 'headers' });
    expect(fineResult).toMatchObject({ kind: 'response', status: 200 });
  });
});

describe('client: attempt deadlines', () => {
  it('a trickling body is an attempt-scope body timeout, retried, while other calls succeed', async () => {
    const { baseUrl, requests } = await server();
    const client: RepairServiceClient = createClient({
      baseUrl,
      apiKey: key,
      tenant: 'rowery-nowak',
      logLevel: 'silent',
      maxRetries: 1,
      attemptTimeoutMs: 1_000,
    });
    cleanups.push(() => client.close());
    const trickle = client.platform.get('trickle').then(
      () => undefined,
      (e: unknown) => e,
    );
    await expect(client.platform.get('ok')).resolves.toEqual([1]);
    const error = await trickle;
    expect(isTimeoutError(error)).toBe(true);
    if (isTimeoutError(error)) expect(error).toMatchObject({ scope: 'attempt', phase: 'body', attempts: 2 });
    expect(requests.filter((p) => p.endsWith('/trickle'))).toHaveLength(2);
  });
});

describe('sendAttempt: the path on the wire', () => {
  it('is what URL parsing makes of base and path, whether it goes straight to the dispatcher or not', async () => {
    const seen: string[] = [];
    const srv = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end(OK_BODY);
    });
    await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => srv.close(() => resolve())));
    const origin = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
    const dispatcher = agent();
    const cases: Array<[base: string, path: string, query?: string]> = [
      [`${origin}/api/v1`, '/tenants/rowery-nowak/clients'],
      [`${origin}/api/v1/`, '/'],
      [`${origin}/api//v1`, '/docs'],
      [`${origin}/api/v1`, 'tenants/sklep.pl/bikes', 'page=2&per_page=50'],
      // URL parsing rewrites these; they take undici's parsing road.
      [`${origin}/api/v1`, '/tenants/x y/clients'],
      [`${origin}/api/v1`, '/tenants/café/repairs', "q=it's"],
      [`${origin}/api/v1`, '/tenants/a/./b'],
      [`${origin}/api/v1`, '/tenants/%2e%2e/logs'],
      [`${origin}/api/v1`, '/docs?'],
      [origin, '/docs'],
      // Bases URL parsing rewrites (an empty query or fragment, a backslash, a space, case, a
      // default port): joined first and parsed whole, as before.
      [`${origin}/api/v1?`, '/docs'],
      [`${origin}/api/v1#`, '/docs'],
      [`${origin}/api/v1\\`, '/docs'],
      [`${origin}/api/v1 `, '/docs'],
      [`${origin.toUpperCase()}/API/v1`, '/docs'],
    ];
    for (const [baseUrl, path, query] of cases) {
      const result = await sendAttempt({
        dispatcher,
        baseUrl,
        path,
        query,
        endpoint: undefined,
        key,
        authScheme: 'bearer',
        timeoutMs: 5000,
      });
      expect(result.kind, `${baseUrl} ${path}`).toBe('response');
      const parsed = new URL(`${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}${query ? `?${query}` : ''}`);
      expect(seen.pop(), `${baseUrl} ${path}`).toBe(parsed.pathname + parsed.search);
    }
  });
});
