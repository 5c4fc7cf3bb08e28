/**
 * Every fault x {client, monitor}: each row classified with its own error class / outcome,
 * nothing escapes as an unhandled rejection, and a monitor with one faulty and one healthy
 * target keeps the healthy one `ok` in the same round. The results become a markdown table in
 * the OS temp dir (path printed) for the closing note.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/index.js';
import { isApiError } from '../../api/client/index.js';
import { ERROR_CODES } from '../../api/contract/index.js';
import { errorEnvelope } from '../../api/contract/server/index.js';
import { type FaultRow, type Origins, arm, clientOutcome, describeClient, monitorRound, startScripted } from './fault-rig.js';
import { type Recorder, type RejectionTrap, startRecorder, trapUnhandled, writeMarkdownTable } from './helpers.js';
import { closedPort } from '../helpers/rig.js';

const RATE_LIMITED_BODY = JSON.stringify(errorEnvelope(ERROR_CODES.rateLimited, 'Zbyt wiele żądań.'));

let origins: Origins;
let recorder: Recorder;
let trap: RejectionTrap;
const results: string[][] = [];

const sandbox = (spec: string) => ({ kind: 'sandbox' as const, spec });

const ROWS: readonly FaultRow[] = [
  {
    fault: 'latency past the timeout',
    source: sandbox('latency:4000'),
    client: { name: 'TimeoutError', fields: { scope: 'attempt', phase: 'headers' } },
    monitor: { outcome: 'timeout', reason: 'timeout_headers' },
  },
  {
    fault: 'connection reset',
    source: sandbox('reset'),
    client: { name: 'ConnectionError', fields: { networkCode: 'UND_ERR_SOCKET' } },
    monitor: { outcome: 'connection_error', reason: 'connection_und_err_socket' },
  },
  {
    fault: 'connection refused (closed port)',
    source: { kind: 'refused' },
    client: { name: 'ConnectionError', fields: { networkCode: 'ECONNREFUSED' } },
    monitor: { outcome: 'connection_error', reason: 'connection_econnrefused' },
  },
  {
    fault: 'stalled body',
    source: sandbox('stall'),
    client: { name: 'TimeoutError', fields: { scope: 'attempt', phase: 'body' } },
    monitor: { outcome: 'timeout', reason: 'timeout_body' },
  },
  // Past the monitor's cap (4 KiB here), under the client's fixed 20 MiB: the client reads it (its cap is tested in client-basics).
  {
    fault: 'oversized body',
    source: sandbox('oversized:100000'),
    client: { name: 'success', fields: {} },
    monitor: { outcome: 'invalid_envelope', reason: 'body_too_large' },
  },
  {
    fault: 'invalid JSON',
    source: sandbox('invalid-json'),
    client: { name: 'EnvelopeError', fields: { problem: 'not_json', status: 200 } },
    monitor: { outcome: 'invalid_envelope', reason: 'envelope_not_json' },
  },
  {
    fault: 'non-envelope JSON',
    source: sandbox('broken-envelope'),
    client: { name: 'EnvelopeError', fields: { problem: 'ok_missing', status: 200 } },
    monitor: { outcome: 'invalid_envelope', reason: 'envelope_ok_missing' },
  },
  {
    fault: 'ok:true without data',
    source: sandbox('ok-without-data'),
    client: { name: 'EnvelopeError', fields: { problem: 'data_missing', status: 200 } },
    monitor: { outcome: 'invalid_envelope', reason: 'envelope_data_missing' },
  },
  {
    fault: 'ok:false without error (HTTP 400, scripted origin)',
    source: { kind: 'scripted', status: 400, body: '{"ok":false}' },
    client: { name: 'EnvelopeError', fields: { problem: 'error_missing', status: 400 } },
    monitor: { outcome: 'invalid_envelope', reason: 'envelope_error_missing' },
  },
  {
    fault: 'ok:false, error without code (sandbox, HTTP 500)',
    source: sandbox('error-without-code'),
    client: { name: 'ServerError', fields: { status: 500, code: undefined } },
    monitor: { outcome: 'server_error', reason: 'status_500' },
  },
  {
    fault: 'HTML 502 from a proxy',
    source: sandbox('html-502'),
    client: { name: 'ServerError', fields: { status: 502, code: undefined } },
    monitor: { outcome: 'server_error', reason: 'status_502' },
  },
  {
    fault: '429 without Retry-After',
    source: sandbox('rate-limit-storm'),
    client: { name: 'RateLimitError', fields: { status: 429, retryAfterMs: 1000, retryAfterBasis: 'backoff' } },
    monitor: { outcome: 'rate_limited', reason: 'status_429' },
  },
  {
    fault: '429 with Retry-After: 2',
    source: sandbox('rate-limit-storm:2'),
    client: { name: 'RateLimitError', fields: { status: 429, retryAfterMs: 2000 } },
    monitor: { outcome: 'rate_limited', reason: 'status_429' },
  },
  {
    fault: '429 with a huge Retry-After (86400 s, the sandbox maximum)',
    source: sandbox('rate-limit-storm:86400'),
    client: {
      name: 'RateLimitError',
      fields: { status: 429, retryAfterMs: 86_400_000, stopReason: 'hint_above_max', attempts: 1 },
      maxRetries: 3,
    },
    monitor: { outcome: 'rate_limited', reason: 'retry_after_capped' },
  },
  {
    fault: '429 with an absurd Retry-After (1e15 s, scripted origin)',
    source: { kind: 'scripted', status: 429, body: RATE_LIMITED_BODY, headers: { 'retry-after': '1000000000000000' } },
    client: {
      name: 'RateLimitError',
      fields: { status: 429, retryAfterMs: Number.MAX_SAFE_INTEGER, stopReason: 'hint_above_max', attempts: 1 },
      maxRetries: 3,
    },
    // Longer than maxRateLimitHold (1 h): held for the cap, and the reason says so.
    monitor: { outcome: 'rate_limited', reason: 'retry_after_capped' },
  },
  {
    fault: 'redirect to another origin',
    source: sandbox('redirect:{other}/steal'),
    client: { name: 'ApiError', fields: { status: 302 } },
    monitor: { outcome: 'redirect', reason: 'redirect_302' },
  },
  {
    fault: 'DNS failure (.invalid host)',
    source: { kind: 'dns' },
    client: { name: 'ConnectionError', fields: { networkCode: 'ENOTFOUND' } },
    monitor: { outcome: 'connection_error', reason: 'connection_enotfound' },
  },
];

beforeAll(async () => {
  trap = trapUnhandled();
  recorder = await startRecorder();
  const [faulty, healthy, scripted, refusedPort] = await Promise.all([startSandbox(), startSandbox(), startScripted(), closedPort()]);
  origins = { other: recorder.origin, faulty, healthy, scripted, refusedPort };
});

afterAll(async () => {
  await Promise.all([origins?.faulty.close(), origins?.healthy.close(), origins?.scripted.close(), recorder?.close()]);
  trap?.dispose();
  if (results.length > 0) {
    const path = writeMarkdownTable(
      'repairmon-fault-matrix.md',
      'Fault matrix: client and monitor',
      ['fault', 'source', 'client (class, fields)', 'monitor (outcome / reason)', 'healthy target', 'result'],
      results,
    );
    console.log(`fault matrix table: ${path}`);
  }
});

describe('fault matrix', () => {
  for (const row of ROWS) {
    it(`${row.fault}: client and monitor each classify it, the healthy target stays ok`, async () => {
      const baseUrl = arm(row, origins);
      const error = await clientOutcome(baseUrl, origins.faulty, row.client.maxRetries);
      const round = await monitorRound(baseUrl, origins);
      origins.faulty.setFaults('');
      const healthyOk = round.healthy.length === round.healthyPlanned && round.healthy.every((e) => e.outcome === 'ok');
      const source = row.source.kind === 'sandbox' ? `sandbox \`${row.source.spec}\`` : row.source.kind;
      const cells = [
        row.fault,
        source,
        describeClient(error),
        `${round.faulty.outcome} / ${round.faulty.reason}`,
        healthyOk ? `ok (${round.healthy.length} probes)` : 'NOT ok',
      ];
      try {
        if (row.client.name === 'success') expect(error, describeClient(error)).toMatchObject({ unexpectedSuccess: expect.any(Array) });
        else {
          expect(isApiError(error), describeClient(error)).toBe(true);
          expect((error as Error).name).toBe(row.client.name);
          expect(error).toMatchObject(row.client.fields);
        }
        expect({ outcome: round.faulty.outcome, reason: round.faulty.reason }).toEqual(row.monitor);
        expect(round.faulty.success).toBe(false);
        expect(round.healthy.map((e) => `${e.endpoint}:${e.outcome}`)).toEqual(round.healthy.map((e) => `${e.endpoint}:ok`));
        expect(round.healthy).toHaveLength(round.healthyPlanned);
        results.push([...cells, 'pass']);
      } catch (failure) {
        results.push([...cells, 'FAIL']);
        throw failure;
      }
    });
  }

  it('the redirect target never saw a request, and nothing was left unhandled', async () => {
    // Let any late rejection from aborted or reset sockets surface before looking: waiting for
    // something not to happen, so a while is all there is to wait on.
    await new Promise((r) => setTimeout(r, 50));
    expect(recorder.seen).toEqual([]);
    expect(trap.seen).toEqual([]);
  });
});
