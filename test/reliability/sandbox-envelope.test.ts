/**
 * Hardening item 9: requests Node's HTTP server used to answer on its own, outside the
 * envelope (a bare 400 for a missing Host, a bare 417 for an unknown Expect, a closed socket for
 * CONNECT, a 200 followed by an unsolicited 400 for a malformed chunked body), and repeated auth
 * headers that Node joins (`x-api-key`) or silently drops (`Authorization`). Every answer must be
 * one envelope with a request id, in every dialect (`strict-hiding` sends plain 401/429 bodies,
 * which must not leak into these protocol answers). And a parser error's 400 must never be
 * written into the middle of an answer already on the wire.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_ID_HEADER, parseEnvelope } from '../../api/contract/index.js';
import { JSON_CONTENT_TYPE } from '../../api/contract/server/index.js';
import { type RunningSandbox, startSandbox } from '../../sandbox/index.js';

interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Every response the server wrote on one connection, in order (interim 1xx ones included). */
function parseResponses(bytes: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = bytes;
  while (rest.length > 0) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd === -1) break;
    const [statusLine = '', ...lines] = rest.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    const bodyStart = headEnd + 4;
    responses.push({
      status: Number(statusLine.split(' ')[1]),
      headers,
      body: rest.subarray(bodyStart, bodyStart + length).toString('utf8'),
    });
    rest = rest.subarray(bodyStart + length);
  }
  return responses;
}

/** Writes the bytes, then reads until the server closes the connection (or 2 s pass). */
function exchange(port: number, text: string): Promise<{ responses: RawResponse[]; closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ responses: parseResponses(Buffer.concat(chunks)), closedByServer: false });
    }, 2000);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ responses: parseResponses(Buffer.concat(chunks)), closedByServer: true });
    });
    socket.write(text);
  });
}

function expectOneEnvelope(responses: RawResponse[], status: number, code: string): RawResponse {
  expect(responses.map((r) => r.status)).toEqual([status]);
  const [res] = responses as [RawResponse];
  expect(res.headers['content-type']).toBe(JSON_CONTENT_TYPE);
  expect(res.headers[REQUEST_ID_HEADER]).toMatch(/^[0-9a-f-]{36}$/);
  const parsed = parseEnvelope(res.body, { status });
  expect(parsed).toMatchObject({ valid: true, envelope: { ok: false, error: { code } } });
  return res;
}

const sandboxes: Record<string, RunningSandbox> = {};
beforeAll(async () => {
  sandboxes['reference'] = await startSandbox();
  sandboxes['strict-hiding'] = await startSandbox({ dialect: 'strict-hiding' });
});
afterAll(async () => {
  await Promise.all(Object.values(sandboxes).map((s) => s.close()));
});

describe.each(['reference', 'strict-hiding'])('protocol-level answers are envelopes (%s)', (dialect) => {
  const port = (): number => sandboxes[dialect]!.port;

  it('an HTTP/1.1 request without Host gets a 400 envelope, not a bare 400', async () => {
    const { responses } = await exchange(port(), 'GET /api/v1/docs HTTP/1.1\r\nConnection: close\r\n\r\n');
    const res = expectOneEnvelope(responses, 400, 'bad_request');
    expect(res.body).toContain('Host');
  });

  it('two Host headers get a 400 envelope (RFC 9112 §3.2), not the first one served', async () => {
    const { responses } = await exchange(port(), 'GET /api/v1/docs HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n');
    expectOneEnvelope(responses, 400, 'bad_request');
  });

  it('an Expect it cannot meet gets a 417 envelope, not a bare 417', async () => {
    const { responses } = await exchange(port(), 'GET /api/v1/docs HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\nConnection: close\r\n\r\n');
    const res = expectOneEnvelope(responses, 417, 'bad_request');
    expect(res.body).toContain('Expect');
  });

  it('CONNECT gets a 405 envelope with Allow: GET, then the connection is closed', async () => {
    const { responses, closedByServer } = await exchange(port(), 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    const res = expectOneEnvelope(responses, 405, 'method_not_allowed');
    expect(res.headers['allow']).toBe('GET');
    expect(res.headers['connection']).toBe('close');
    expect(closedByServer).toBe(true);
  });

  it('a GET with a malformed chunked body gets one 400 envelope and no 200', async () => {
    const { responses, closedByServer } = await exchange(
      port(),
      'GET /api/v1/docs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nnot a chunk\r\n0\r\n\r\n',
    );
    expectOneEnvelope(responses, 400, 'bad_request');
    expect(closedByServer).toBe(true);
  });
});

describe('a body past the cap is answered 413 at once, never read to its end', () => {
  const port = (): number => sandboxes['reference']!.port;

  it('a declared Content-Length over 64 KiB: one 413 envelope and the connection closed, before any body byte', async () => {
    const { responses, closedByServer } = await exchange(
      port(),
      `GET /api/v1/docs HTTP/1.1\r\nHost: x\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n`,
    );
    expectOneEnvelope(responses, 413, 'bad_request');
    expect(closedByServer).toBe(true);
  });

  it('a chunked body that grows past 64 KiB (and never ends): one 413 envelope, the connection closed', async () => {
    const chunk = 'x'.repeat(16 * 1024);
    const chunks = Array.from({ length: 6 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    const { responses, closedByServer } = await exchange(
      port(),
      `GET /api/v1/docs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${chunks}`,
    );
    expectOneEnvelope(responses, 413, 'bad_request');
    expect(closedByServer).toBe(true);
  });

  it("a small body is read and dropped: the answer is the route's", async () => {
    const { responses } = await exchange(
      port(),
      'GET /api/v1/docs HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello',
    );
    expect(responses.map((r) => r.status)).toEqual([200]);
  });
});

describe('repeated auth headers are refused, not joined or dropped', () => {
  const sandbox = (): RunningSandbox => sandboxes['reference']!;

  it('two x-api-key headers (even the same valid key twice) get a 400 naming the header, not the key', async () => {
    const key = sandbox().key('nowak-test').key;
    const { responses } = await exchange(
      sandbox().port,
      `GET /api/v1/tenants/rowery-nowak/clients HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\nx-api-key: ${key}\r\nConnection: close\r\n\r\n`,
    );
    const res = expectOneEnvelope(responses, 400, 'bad_request');
    expect(res.body).toContain('x-api-key');
    expect(res.body).not.toContain(key.slice(-8));
  });

  it('two Authorization headers get a 400 naming the header; Node would have used the first', async () => {
    const key = sandbox().key('nowak-test').key;
    const other = sandbox().key('kowalski-test').key;
    const { responses } = await exchange(
      sandbox().port,
      `GET /api/v1/tenants/rowery-nowak/clients HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nAuthorization: Bearer ${other}\r\nConnection: close\r\n\r\n`,
    );
    const res = expectOneEnvelope(responses, 400, 'bad_request');
    expect(res.body).toContain('Authorization');
    expect(res.body).not.toContain(key.slice(-8));
    expect(res.body).not.toContain(other.slice(-8));
  });
});

describe('a parser error on a connection whose answer has begun', () => {
  const sandbox = (): RunningSandbox => sandboxes['reference']!;

  it('a malformed request behind a half-written answer closes the connection; no 400 written into its body', async () => {
    sandbox().setFaults('stall@/docs');
    try {
      const socket = connect(sandbox().port, '127.0.0.1');
      let received = '';
      const headersIn = new Promise<void>((resolve) => {
        socket.on('data', (c: Buffer) => {
          received += c.toString('utf8');
          if (received.includes('\r\n\r\n')) resolve();
        });
      });
      // Not half-closed by us: only the server's own decision can end this connection.
      const closed = new Promise<boolean>((resolve) => {
        socket.on('close', () => resolve(true));
        setTimeout(() => resolve(false), 2000);
      });
      socket.write('GET /api/v1/docs HTTP/1.1\r\nHost: x\r\n\r\n');
      await headersIn;
      socket.write('GET /api/v1/docs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n');
      expect(await closed).toBe(true);
      socket.destroy();
      expect(received).toMatch(/^HTTP\/1\.1 200 /);
      expect(received).not.toContain('HTTP/1.1 400');
    } finally {
      sandbox().setFaults('');
    }
  });
});
