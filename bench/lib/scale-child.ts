/**
 * One scale measurement in its own process (fresh heap, own RSS): ONE spread tick driven through
 * `monitor.tick()` instead of waiting for cron, then `/metrics` rendered over HTTP. The parent
 * sends the job over IPC (the key included) and samples this process's CPU and RSS meanwhile.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { createLogger } from '../../lib/index.js';
import { createMonitor, createMonitorServer, parseConfigText } from '../../monitor/index.js';
import { isEntryPoint } from './cli.js';
import { BENCH_KEY_ENV, benchMonitorYaml } from './monitor-process.js';
import { histogramBuckets, histogramQuantile, parseSamples, seriesCount, sumOf } from './prom-text.js';

export interface ScaleJob {
  readonly keys: number;
  readonly baseUrl: string;
  readonly key: string;
  readonly tenant: string;
  readonly intervalSeconds: number;
  readonly timeoutSeconds: number;
  readonly concurrency: number;
  readonly renders: number;
}

type ScaleChildFigures = Awaited<ReturnType<typeof measure>>;

export type FromScaleChild =
  | { readonly op: 'ready' }
  | { readonly op: 'done'; readonly figures: ScaleChildFigures }
  | { readonly op: 'failed'; readonly message: string };

/** A cron expression firing every `seconds` (a divisor of 60), in node-cron's 6-field form. */
export function everySeconds(seconds: number): string {
  if (!Number.isInteger(seconds) || seconds < 1 || 60 % seconds !== 0)
    throw new Error(`the interval must divide 60 seconds, got ${seconds}`);
  return seconds === 60 ? '0 * * * * *' : `*/${seconds} * * * * *`;
}

async function renderMetrics(url: string): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  const res = await request(url);
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`/metrics answered ${res.statusCode}`);
  return { ms: performance.now() - started, text };
}

async function measure(job: ScaleJob) {
  const yaml = benchMonitorYaml({
    baseUrl: job.baseUrl,
    keys: job.keys,
    tenant: job.tenant,
    schedule: everySeconds(job.intervalSeconds),
    timeout: `${job.timeoutSeconds}s`,
    canaries: true,
    concurrency: job.concurrency,
  });
  const parsed = parseConfigText(yaml, { env: { [BENCH_KEY_ENV]: job.key }, baseDir: process.cwd() });
  if (!parsed.ok) throw new Error(`scale config rejected: ${parsed.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  const logger = createLogger({ level: 'silent' });
  const monitor = createMonitor(parsed.config, { logger });
  const server = await createMonitorServer(monitor, { host: '127.0.0.1', port: 0, logger });
  const probesDone = async (): Promise<number> =>
    sumOf(parseSamples(await monitor.registry.getSingleMetricAsString('repairmon_probes_total')), 'repairmon_probes_total');
  try {
    const scheduled = monitor.plan().length;
    const started = performance.now();
    let finished = false;
    const tick = monitor.tick('bench', { spread: true }).then(() => void (finished = true));
    await Promise.race([tick, sleep(job.intervalSeconds * 1000)]);
    const doneInInterval = await probesDone();
    // A late tick gets one more timeout to finish, then is abandoned by stop().
    await Promise.race([tick, sleep(job.timeoutSeconds * 1000)]);
    const tickSeconds = (performance.now() - started) / 1000;
    const doneAtEnd = await probesDone();
    await monitor.stop();
    const renders: Array<{ ms: number; text: string }> = [];
    for (let i = 0; i < job.renders; i += 1) renders.push(await renderMetrics(`${server.url}/metrics`));
    const text = renders.at(-1)?.text ?? '';
    const samples = parseSamples(text);
    const p99 = histogramQuantile(0.99, histogramBuckets(samples, 'repairmon_probe_schedule_delay_seconds'));
    return {
      keys: job.keys,
      scheduled,
      /** Probes recorded when the interval ran out, and when the tick ended (or was given up on). */
      doneInInterval,
      doneAtEnd,
      /** Probes whose last outcome was the expected one. */
      expected: sumOf(samples, 'repairmon_probe_success'),
      tickSeconds,
      tickFinished: finished,
      delayP99Seconds: p99.kind === 'estimate' ? p99.value : p99.kind === 'above' ? p99.atLeast : Number.NaN,
      /** Upper bound of the histogram bucket holding p99 (Infinity past the last bucket). */
      delayP99AtMostSeconds: p99.kind === 'estimate' ? p99.atMost : p99.kind === 'above' ? Number.POSITIVE_INFINITY : Number.NaN,
      series: seriesCount(text),
      metricsBytes: Buffer.byteLength(text),
      renderMs: renders.map((r) => r.ms),
      rssBytes: process.memoryUsage().rss,
    };
  } finally {
    await monitor.stop();
    await server.close();
  }
}

if (isEntryPoint(import.meta.url)) {
  process.once('message', (job: ScaleJob) => {
    const reply = (message: FromScaleChild, code: number): void => void process.send?.(message, () => process.exit(code));
    measure(job).then(
      (figures) => reply({ op: 'done', figures }, 0),
      (error: unknown) => reply({ op: 'failed', message: error instanceof Error ? error.message : String(error) }, 1),
    );
  });
  // Orphaned (the parent gave up or died): stop rather than probe on unobserved.
  process.once('disconnect', () => process.exit(1));
  process.send?.({ op: 'ready' } satisfies FromScaleChild);
}
