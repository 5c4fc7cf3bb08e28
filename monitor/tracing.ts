/**
 * One OpenTelemetry span per probe sent, exported over OTLP/HTTP (JSON) when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set. The span is the
 * parent of the probe's request: its trace id is the one in the request's `traceparent`, so the
 * API's own spans join the trace. Without the variable no OpenTelemetry code is loaded: the SDK
 * is imported here, dynamically, and only then.
 */
import type { ProbeVerdict } from './probe/outcome.js';
import type { ProbeSpec } from './probe/spec.js';

export type ProbeTracer = NonNullable<Awaited<ReturnType<typeof createProbeTracer>>>;

type Env = Readonly<Record<string, string | undefined>>;

/** Where spans go, as the OpenTelemetry SDKs read it; undefined when tracing is off. */
export function tracesUrl(env: Env): string | undefined {
  const traces = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']?.trim();
  if (traces) return traces;
  const base = env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim();
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

export async function createProbeTracer(env: Env, version: string) {
  const url = tracesUrl(env);
  if (url === undefined) return undefined;
  const [api, sdk, otlp, resources] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const provider = new sdk.BasicTracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': 'repairmon', 'service.version': version }),
    spanProcessors: [new sdk.BatchSpanProcessor(new otlp.OTLPTraceExporter({ url }))],
  });
  const tracer = provider.getTracer('repairmon', version);
  return {
    /** `keyAlias`: the alias the request goes with (never the key). */
    start(spec: ProbeSpec, keyAlias: string) {
      const span = tracer.startSpan(`GET ${spec.endpointLabel}`, {
        kind: api.SpanKind.CLIENT,
        attributes: {
          'http.request.method': 'GET',
          'repairmon.target': spec.target,
          'repairmon.endpoint': spec.endpointLabel,
          'repairmon.tenant': spec.tenant,
          'repairmon.key_alias': keyAlias,
          'repairmon.check': spec.check,
        },
      });
      const context = span.spanContext();
      return {
        /** The W3C `traceparent` the probe's request carries: this span as its parent. */
        traceparent: `00-${context.traceId}-${context.spanId}-${context.traceFlags.toString(16).padStart(2, '0')}`,
        end(verdict: ProbeVerdict, requestId: string | undefined): void {
          span.setAttributes({
            'repairmon.outcome': verdict.outcome,
            'repairmon.reason': verdict.reason,
            ...(verdict.status === undefined ? {} : { 'http.response.status_code': verdict.status }),
            ...(requestId === undefined ? {} : { 'repairmon.request_id': requestId }),
          });
          if (!verdict.success) span.setStatus({ code: api.SpanStatusCode.ERROR, message: verdict.reason });
          span.end();
        },
      };
    },
    /** Exports what is still buffered, then stops. */
    shutdown: (): Promise<void> => provider.shutdown(),
  };
}
