/**
 * Requests a client library would never send, written raw on a socket: each must still get
 * a JSON envelope with a request id, never a hang or a bare Node error page.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_ID_HEADER, parseEnvelope } from '../../api/contract/index.js';
import { JSON_CONTENT_TYPE } from '../../api/contract/server/index.js';
import { type RunningSandbox, startSandbox } from '../../sandbox/index.js';

interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

/** `halfClose: false` keeps the client's side open: a half-close aborts what a server has not answered yet. */
function raw(text: string | Buffer, { halfClose = true } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(sandbox.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = all.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    if (halfClose) socket.end(text);
    else socket.write(text);
  });
}

function http(requestLine: string, extra: string[] = [], body = ''): Promise<RawResponse> {
  return raw([requestLine, 'Host: sandbox', 'Connection: close', ...extra, '', body].join('\r\n'));
}

function expectEnvelope(res: RawResponse, status: number, code?: string): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe(JSON_CONTENT_TYPE);
  expect(res.headers[REQUEST_ID_HEADER]).toMatch(/^[0-9a-f-]{36}$/);
  const parsed = parseEnvelope(res.body, { status });
  expect(parsed).toMatchObject({ valid: true });
  if (code && parsed.valid && !parsed.envelope.ok) expect(parsed.envelope.error.code).toBe(code);
}

describe('malformed and unusual requests', () => {
  it.each([
    ['GET /api/v1/tenants/%ZZ/clients HTTP/1.1', 401, 'unauthorized'],
    ['GET /api/v1/tenants/Rowery_Nowak/clients HTTP/1.1', 401, 'unauthorized'],
    ['GET /api/v1/tenants/%2e%2e/clients HTTP/1.1', 401, 'unauthorized'],
    ['GET /api/v1/%E0%A4%A HTTP/1.1', 404, 'not_found'],
    ['GET //api/v1/docs HTTP/1.1', 404, 'not_found'],
    ['GET /api/v1//docs HTTP/1.1', 404, 'not_found'],
    ['GET /api/v2/docs HTTP/1.1', 404, 'not_found'],
    ['GET / HTTP/1.1', 404, 'not_found'],
    ['GET /api/v1/tenants/rowery-nowak/clients/kl-001 HTTP/1.1', 404, 'not_found'],
    ['GET /api/v1/docs?x=1&y=%ZZ HTTP/1.1', 200, undefined],
    ['GET /api/v1/docs/ HTTP/1.1', 200, undefined],
    ['GET http://sandbox/api/v1/docs HTTP/1.1', 200, undefined],
    ['GET /api/v1/tenants/rowery-nowak/clients?page=2 HTTP/1.1', 401, 'unauthorized'],
    ['POST /api/v1/docs HTTP/1.1', 405, 'method_not_allowed'],
    ['OPTIONS * HTTP/1.1', 405, 'method_not_allowed'],
    ['DELETE /api/v1/tenants/rowery-nowak/clients HTTP/1.1', 405, 'method_not_allowed'],
  ])('%s -> %i', async (line, status, code) => {
    const res = await http(line);
    expectEnvelope(res, status, code);
    if (status === 405) expect(res.headers['allow']).toBe('GET');
  });

  it('HEAD is refused with 405 and Allow: GET, without a body', async () => {
    const res = await http('HEAD /api/v1/docs HTTP/1.1');
    expect(res.status).toBe(405);
    expect(res.headers['allow']).toBe('GET');
    expect(res.headers['content-type']).toBe(JSON_CONTENT_TYPE);
    expect(res.body).toBe('');
  });

  it('a POST body and a GET body are read and ignored', async () => {
    expectEnvelope(await http('POST /api/v1/docs HTTP/1.1', ['Content-Length: 11'], '{"a":"b"}\r\n'), 405, 'method_not_allowed');
    expectEnvelope(await http('GET /api/v1/docs HTTP/1.1', ['Content-Length: 5'], 'hello'), 200);
  });

  it('huge headers get 431 as an envelope', async () => {
    expectEnvelope(await http('GET /api/v1/docs HTTP/1.1', [`X-Big: ${'a'.repeat(40_000)}`]), 431, 'bad_request');
  });

  it('a garbage request line gets 400 as an envelope', async () => {
    expectEnvelope(await raw('NOT HTTP AT ALL\r\n\r\n'), 400, 'bad_request');
    expectEnvelope(await raw('GET /api/v1/docs HTTP/1.1\r\nBad Header\r\n\r\n'), 400);
  });

  it('a huge Authorization header and raw UTF-8 in the path are answered, not crashed on', async () => {
    expectEnvelope(await http('GET /api/v1/ HTTP/1.1', [`Authorization: Bearer ${'k'.repeat(8000)}`]), 401, 'unauthorized');
    const res = await raw(Buffer.from('GET /api/v1/tenants/żółw/clients HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 'utf8'));
    expect(parseEnvelope(res.body, { status: res.status })).toMatchObject({ valid: true });
  });
});

describe('HTTP corners Node answers itself unless told otherwise', () => {
  it('Expect: 100-continue gets 100 Continue, then the answer once the body has come', async () => {
    const socket = connect(sandbox.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const continued = new Promise<void>((resolve) => {
      socket.on('data', (c: Buffer) => {
        chunks.push(c);
        if (Buffer.concat(chunks).toString('latin1').startsWith('HTTP/1.1 100 Continue\r\n\r\n')) resolve();
      });
    });
    socket.write('GET /api/v1/docs HTTP/1.1\r\nHost: x\r\nConnection: close\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n');
    await continued;
    socket.end('hello');
    await closed;
    const final = Buffer.concat(chunks).toString('utf8').slice('HTTP/1.1 100 Continue\r\n\r\n'.length);
    expect(final).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('an HTTP/1.0 request needs no Host; an Upgrade request is served as a plain GET', async () => {
    expectEnvelope(await raw('GET /api/v1/docs HTTP/1.0\r\n\r\n'), 200);
    expectEnvelope(await http('GET /api/v1/docs HTTP/1.1', ['Upgrade: websocket', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==']), 200);
  });

  it('a malformed body after a finished answer on the same connection gets its own 400', async () => {
    const res = await raw(
      'GET /api/v1/docs HTTP/1.1\r\nHost: x\r\n\r\nGET /api/v1/docs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n',
    );
    const statuses = [...`${res.body}`.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    expect([res.status, ...statuses]).toEqual([200, 400]);
  });

  it.each(['', 'latency:300@/docs'])(
    'a good GET pipelined before a garbage line gets its 200 first, then the 400 (faults: "%s")',
    async (faults) => {
      sandbox.setFaults(faults);
      try {
        const res = await raw('GET /api/v1/docs HTTP/1.1\r\nHost: x\r\n\r\nNOT HTTP AT ALL\r\n\r\n', { halfClose: false });
        const statuses = [...`${res.body}`.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
        expect([res.status, ...statuses]).toEqual([200, 400]);
        expect(res.body).toContain('"ok":true');
      } finally {
        sandbox.setFaults('');
      }
    },
  );

  it.each(['%ZZ', 'Rowery_Nowak', '%2e%2e'])(
    'a malformed slug (%s) with a platform key: 400 invalid_tenant_slug (without a key: 401, the key comes first)',
    async (slug) => {
      expectEnvelope(
        await http(`GET /api/v1/tenants/${slug}/clients HTTP/1.1`, [`x-api-key: ${sandbox.key('platform-test').key}`]),
        400,
        'invalid_tenant_slug',
      );
    },
  );

  it('the same key in x-api-key and Authorization is one key; two different ones are refused', async () => {
    const key = sandbox.key('nowak-test').key;
    const other = sandbox.key('gdansk-test').key;
    expectEnvelope(
      await http('GET /api/v1/tenants/rowery-nowak/clients HTTP/1.1', [`x-api-key: ${key}`, `Authorization: Bearer ${key}`]),
      200,
    );
    const two = await http('GET /api/v1/tenants/rowery-nowak/clients HTTP/1.1', [`x-api-key: ${key}`, `Authorization: Bearer ${other}`]);
    expectEnvelope(two, 401, 'unauthorized');
    // Says what is wrong (two headers), not that a header "has an invalid format".
    expect(two.body).toContain('x-api-key i Authorization');
    expect(two.body).not.toContain('nieprawidłowy format');
    const basic = await http('GET /api/v1/tenants/rowery-nowak/clients HTTP/1.1', [`Authorization: Basic ${key}`]);
    expectEnvelope(basic, 401, 'unauthorized');
    expect(basic.body).toContain('Bearer');
  });
});

describe('clients that go away', () => {
  it('a client that disconnects mid-body or mid-headers does not take the sandbox down', async () => {
    for (const partial of [
      'POST /api/v1/docs HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nabc',
      'GET /api/v1/docs HTTP/1.1\r\nHost: x\r\nX-Half: ab',
    ]) {
      const socket = connect(sandbox.port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
      // Once written, the bytes reach the sandbox before the close does (TCP keeps the order).
      await new Promise((resolve) => socket.write(partial, resolve));
      socket.destroy();
    }
    const res = await http('GET /api/v1/docs HTTP/1.1');
    expect(res.status).toBe(200);
  });
});
