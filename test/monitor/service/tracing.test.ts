/**
 * What every monitor request carries (`User-Agent: repairmon/<version>`, a W3C traceparent), and
 * where its trace id shows next to the server's request id: the history and `/probes`, the debug
 * view, the log line of a failure. With OTEL_EXPORTER_OTLP_ENDPOINT set, one span per probe
 * sent reaches a real OTLP/HTTP receiver, its trace id the request's; unset, no OpenTelemetry
 * module is imported at all.
 */
import { type IncomingMessage, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../lib/logger.js';
import { packageVersion } from '../../../lib/package-root.js';
import { debugReport } from '../../../monitor/http/debug-probe.js';
import { type ProbesView, probesJson, renderProbesPage } from '../../../monitor/http/html.js';
import { createProbeTracer, tracesUrl } from '../../../monitor/tracing.js';
import { type Rig, startRig } from '../helpers.js';

const OTEL_MODULES = [
  '@opentelemetry/api',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/resources',
] as const;
const imported = vi.hoisted(() => new Set<string>());
vi.mock('@opentelemetry/api', async (original) => (imported.add('@opentelemetry/api'), original()));
vi.mock('@opentelemetry/sdk-trace-base', async (original) => (imported.add('@opentelemetry/sdk-trace-base'), original()));
vi.mock(
  '@opentelemetry/exporter-trace-otlp-http',
  async (original) => (imported.add('@opentelemetry/exporter-trace-otlp-http'), original()),
);
vi.mock('@opentelemetry/resources', async (original) => (imported.add('@opentelemetry/resources'), original()));

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

/** A real agent that notes the headers of every request it sends. */
function recording(): { dispatcher: Dispatcher; sent: Array<Record<string, string>> } {
  const sent: Array<Record<string, string>> = [];
  const dispatcher = new Agent().compose((dispatch) => (opts, handler) => {
    sent.push(opts.headers as Record<string, string>);
    return dispatch(opts, handler);
  });
  return { dispatcher, sent };
}

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('User-Agent, traceparent and the ids support hands the API team', () => {
  it('every request names repairmon and its version and carries its own trace, shown with the request id in the history, /probes, the debug view and the failure log', async () => {
    const { dispatcher, sent } = recording();
    const out = new PassThrough();
    const logs: Array<Record<string, unknown>> = [];
    out.on('data', (c: Buffer) =>
      logs.push(
        ...c
          .toString()
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, unknown>),
      ),
    );
    rig = await startRig(
      { aliases: ['nowak-test'] },
      { dispatcherFor: () => dispatcher, logger: createLogger({ level: 'warn', destination: out }) },
    );
    rig.sandbox.setFaults('status:503@/tenants/*/clients');
    await rig.monitor.runOnce();

    expect(sent.length).toBe(rig.monitor.history.recent().length);
    expect(new Set(sent.map((h) => h['user-agent']))).toEqual(new Set([`repairmon/${packageVersion()}`]));
    const traces = sent.map((h) => TRACEPARENT.exec(h['traceparent'] ?? '')?.[1]);
    expect(traces.every((t) => t !== undefined)).toBe(true);
    expect(new Set(traces).size).toBe(sent.length);

    const entries = rig.monitor.history.recent();
    expect(new Set(entries.map((e) => e.traceId))).toEqual(new Set(traces));
    const failed = entries.find((e) => e.endpoint === 'clients' && e.check === 'read')!;
    expect(failed).toMatchObject({ success: false, outcome: 'server_error', requestId: expect.stringMatching(/.+/) });
    const line = `trace ${failed.traceId} request ${failed.requestId}`;
    expect(renderProbesPage({ recent: entries, failures: rig.monitor.history.failures() })).toContain(line);
    expect((JSON.parse(probesJson({ recent: entries, failures: [] })) as ProbesView).recent).toContainEqual(
      expect.objectContaining({ traceId: failed.traceId, requestId: failed.requestId }),
    );
    expect(logs.filter((l) => l['msg'] === 'probe failed' && l['probe'] === failed.id)).toEqual([
      expect.objectContaining({ traceId: failed.traceId, requestId: failed.requestId }),
    ]);

    const spec = rig.monitor.plan().find((p) => p.id === failed.id)!;
    const result = await rig.monitor.probeNow(spec);
    const report = await debugReport(result, rig.monitor.keys());
    expect(report['ids']).toEqual({ traceId: result.attempt?.traceId, requestId: expect.stringMatching(/.+/) });
    expect(TRACEPARENT.exec(sent.at(-1)?.['traceparent'] ?? '')?.[1]).toBe(result.attempt?.traceId);
    await dispatcher.close();
  });
});

interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: Record<string, unknown> }>;
}

/** A local OTLP/HTTP receiver: what reached `/v1/traces`, as the JSON protocol sends it. */
async function startReceiver(): Promise<{ url: string; bodies: string[]; contentTypes: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const contentTypes: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        contentTypes.push(req.headers['content-type'] ?? '');
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, bodies, contentTypes, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function spansOf(bodies: readonly string[]): OtlpSpan[] {
  type Body = { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
  return bodies.flatMap((b) => (JSON.parse(b) as Body).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
}

const attribute = (span: OtlpSpan, key: string): unknown => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
};

describe('OpenTelemetry spans (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  it('unset: no OpenTelemetry module is imported, by the monitor or serve', async () => {
    await import('../../../cli/commands/serve.js');
    expect(await createProbeTracer({}, '0.1.0')).toBeUndefined();
    rig = await startRig({ aliases: ['nowak-test'] });
    await rig.monitor.runOnce();
    expect([...imported]).toEqual([]);
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' })).toBe('http://c:4318/v1/traces');
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t:1/x' })).toBe(
      'http://t:1/x',
    );
  });

  it("set: one span per probe sent, over OTLP/HTTP JSON, its trace id the request's, with target, endpoint, key alias, status, outcome and request id, never the key", async () => {
    const receiver = await startReceiver();
    const tracer = (await createProbeTracer({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }, '9.9.9'))!;
    expect([...imported].sort()).toEqual([...OTEL_MODULES].sort());
    const { dispatcher, sent } = recording();
    try {
      rig = await startRig({ aliases: ['nowak-test'] }, { dispatcherFor: () => dispatcher, tracer });
      rig.sandbox.setFaults('status:503@/tenants/*/clients');
      await rig.monitor.runOnce();
      await tracer.shutdown();

      expect(receiver.contentTypes.every((t) => t.startsWith('application/json'))).toBe(true);
      const spans = spansOf(receiver.bodies);
      expect(spans).toHaveLength(sent.length);
      expect(new Set(spans.map((s) => `00-${s.traceId}-${s.spanId}-01`))).toEqual(new Set(sent.map((h) => h['traceparent'])));
      const entries = rig.monitor.history.recent();
      const failed = entries.find((e) => e.endpoint === 'clients' && e.check === 'read')!;
      const span = spans.find((s) => s.traceId === failed.traceId)!;
      expect(span.name).toBe('GET clients');
      expect(span.kind).toBe(3); // CLIENT
      expect(Object.fromEntries(span.attributes.map((a) => [a.key, attribute(span, a.key)]))).toMatchObject({
        'repairmon.target': 'sandbox',
        'repairmon.endpoint': 'clients',
        'repairmon.key_alias': 'nowak-test',
        'repairmon.outcome': 'server_error',
        'http.response.status_code': 503,
        'repairmon.request_id': failed.requestId,
      });
      expect(receiver.bodies.join('')).toContain('"service.name"');
      expect(receiver.bodies.join('')).not.toContain(rig.sandbox.key('nowak-test').key);
    } finally {
      await dispatcher.close();
      await receiver.close();
    }
  });
});
