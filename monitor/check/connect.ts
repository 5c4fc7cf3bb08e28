/**
 * `check-config --connect`: each target tried once, so a wrong host or port shows now rather
 * than minutes later as a page: `GET /docs` without a key and one keyed read per key, with a
 * short timeout (the target's, at most 5 s), through the scheduled probes' own connections and classifier. A target
 * "answers as the API" when /docs succeeds and every keyed read got the API's answer (a refused
 * key is still the API answering). `keyFaults` names each key refused because of the key or
 * the config, so `check-config --connect` can gate a deploy.
 */
import type { Dispatcher } from 'undici';
import { toolUserAgent } from '../../lib/index.js';
import { makeAgent } from '../probe/agent.js';
import { failureClass } from '../probe/failure-class.js';
import { createPoliteness } from '../probe/politeness.js';
import { type ProbeResult, runProbe } from '../probe/run.js';
import { makeProbe, readablePath } from '../probe/spec.js';
import { formatDuration } from '../config/duration.js';
import type { MonitorTarget } from '../config/types.js';

type ConnectReport = Awaited<ReturnType<typeof connectTarget>>;

function answeredByApi(result: ProbeResult): boolean {
  const attempt = result.attempt;
  if (attempt?.kind !== 'response') return false;
  if (attempt.envelope.valid) return true;
  return attempt.status === 401 && result.verdict.outcome === 'unauthorized';
}

function probesOf(target: MonitorTarget) {
  const base = { target: target.name, check: 'read' } as const;
  const docs = {
    what: 'GET /docs (no key)',
    spec: makeProbe({
      ...base,
      endpoint: 'docs',
      tenant: '',
      keyAlias: 'connect-no-key',
      credential: { kind: 'none' },
      expect: { kind: 'success', list: false },
    }),
  };
  const keyed = target.keys.flatMap((key) => {
    const where = readablePath(target, key) ?? { endpoint: 'index' as const, tenant: '' };
    const expect = { kind: 'success', list: where.endpoint !== 'platform' && where.endpoint !== 'index' } as const;
    const spec = makeProbe({ ...base, ...where, keyAlias: key.alias, credential: { kind: 'key', key, scheme: key.auth }, expect });
    return [{ what: `key ${key.alias}: GET ${spec.path}`, spec }];
  });
  return [docs, ...keyed];
}

export async function connectTarget(
  target: MonitorTarget,
  options: { dispatcher?: Dispatcher; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
) {
  const quick: MonitorTarget = { ...target, timeoutMs: Math.min(target.timeoutMs, options.timeoutMs ?? 5_000) };
  const dispatcher = options.dispatcher ?? makeAgent(quick, 4, {}, options.env);
  const politeness = createPoliteness();
  try {
    const lines = await Promise.all(
      probesOf(quick).map(async ({ what, spec }) => {
        const result = await runProbe(spec, quick, { dispatcher, politeness, now: Date.now, userAgent: toolUserAgent() });
        // `api`: the answer was the API's (an envelope, or a bare 401), whatever it said.
        return { what, result, api: answeredByApi(result) };
      }),
    );
    const docsOk = lines[0]?.result.verdict.outcome === 'ok';
    return {
      target: target.name,
      baseUrl: target.baseUrl,
      timeoutMs: quick.timeoutMs,
      lines,
      answersAsApi: docsOk && lines.every((l) => l.api),
    };
  } finally {
    if (!options.dispatcher) await dispatcher.close();
  }
}

function describe(line: ConnectReport['lines'][number]): string {
  const { verdict, durationMs } = line.result;
  const status = verdict.status === undefined ? 'no answer' : `HTTP ${verdict.status}`;
  const why = verdict.success ? 'ok' : `${verdict.outcome} (${verdict.reason})`;
  return `  ${verdict.success ? 'ok  ' : line.api ? 'API ' : 'FAIL'} ${line.what}: ${status}, ${why}, ${Math.round(durationMs)} ms`;
}

/** One line per keyed read refused because of the key or monitor.yaml, naming the key; none when all keys read. */
export function keyFaults(reports: readonly ConnectReport[]): string[] {
  return reports.flatMap((r) =>
    r.lines.flatMap(({ result }) => {
      const { spec, verdict } = result;
      if (spec.credential.kind !== 'key') return [];
      const cls = failureClass(verdict.outcome, verdict.success, spec.endpoint);
      if (cls !== 'key' && cls !== 'config') return [];
      const fix =
        cls === 'config'
          ? 'the API does not know this path: check the tenant (or platformPaths) in monitor.yaml'
          : "the API refuses this key here: check the key's tenant, kind and secret in monitor.yaml";
      return [`key ${spec.keyAlias} on target ${r.target}: GET ${spec.path} got ${verdict.detail}: ${fix}`];
    }),
  );
}

/** A target slow to answer is not a wrong address: it gets its own words, so ops look at the API rather than the URL. */
function targetVerdict(r: ConnectReport): string {
  if (r.answersAsApi) return 'answers as the API';
  const slow = r.lines.filter((l) => !l.result.verdict.success && l.result.verdict.outcome === 'timeout');
  const within = `within ${formatDuration(r.timeoutMs)}`;
  if (slow.length === r.lines.length)
    return `does NOT answer ${within} (a host that accepts connections but stays silent, or the timeout is too short)`;
  const otherwise = r.lines.every((l) => l.api || l.result.verdict.outcome === 'timeout');
  if (!otherwise) return 'does NOT answer as the API';
  if (slow.length > 0)
    return `answers as the API, but ${slow.length} of ${r.lines.length} calls got no answer ${within}: the API is slow there (or the timeout is too short)`;
  // Every answer the API's envelope, yet not a pass: /docs refused or failed (a 503, a 404 of another version).
  const docs = r.lines[0]!.result.verdict;
  return `answers with the API's envelope, but GET /docs failed: ${docs.detail}`;
}

export function formatConnect(reports: readonly ConnectReport[]): string {
  const out = reports.flatMap((r) => [`connect ${r.target} (${r.baseUrl}): ${targetVerdict(r)}`, ...r.lines.map(describe)]);
  return `${out.join('\n')}\n`;
}
