/**
 * One OpenTelemetry span per probe sent, exported over OTLP/HTTP (JSON) when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set. The span is the
 * parent of the probe's request: its trace id is the one in the request's `traceparent`, so the
 * API's own spans join the trace. Without the variable no OpenTelemetry code is loaded: the SDK
 * is imported here, dynamically, and only then. Its packages are optional peer dependencies
 * (package.json), so an install without tracing does not carry them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../lib/index.js';
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

const loadOpenTelemetry = () =>
  Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);

/** Tracing is asked for (an OTLP variable is set) but its optional packages are not installed. */
export class TracingUnavailableError extends Error {
  override readonly name = 'TracingUnavailableError';
}

/** `npm install` of our optional OpenTelemetry peers at the versions package.json names. */
export function openTelemetryInstallCommand(root: string = packageRoot()): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    peerDependencies?: Record<string, string>;
  };
  const peers = Object.entries(pkg.peerDependencies ?? {}).filter(([n]) => n.startsWith('@opentelemetry/'));
  return `npm install ${peers.map(([name, range]) => `${name}@${range}`).join(' ')}`;
}

function isMissingModule(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

/** `load`: how the SDK is imported (a test passes one that fails). */
export async function createProbeTracer(env: Env, version: string, load = loadOpenTelemetry) {
  const url = tracesUrl(env);
  if (url === undefined) return undefined;
  const [api, sdk, otlp, resources] = await load().catch((error: unknown) => {
    if (!isMissingModule(error)) throw error;
    const variable = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']?.trim()
      ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
      : 'OTEL_EXPORTER_OTLP_ENDPOINT';
    throw new TracingUnavailableError(
      `${variable} is set, but the OpenTelemetry packages spans need are not installed (they are optional): ` +
        `run ${openTelemetryInstallCommand()} where generator-repair-service is installed, or unset ${variable}`,
    );
  });
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
