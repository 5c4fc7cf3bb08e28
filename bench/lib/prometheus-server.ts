/**
 * A real Prometheus (Debian's) on a free port with a temporary TSDB, scraping one address
 * every second (or as asked) and evaluating the given rule files as often, optionally sending
 * alerts to an Alertmanager. Shared by the deploy tests and the alert-latency bench.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { stringify } from 'yaml';
import { startReadyProgram } from './child.js';
import { freePort } from './port.js';

export const PROMETHEUS_BINARY = '/usr/bin/prometheus';

type QueryAnswer =
  | { readonly status: 'success'; readonly data: { resultType: string; result: unknown[] } }
  | { readonly status: 'error'; readonly errorType: string; readonly error: string };

export type RunningPrometheus = Awaited<ReturnType<typeof startPrometheus>>;

interface PrometheusOptions {
  /** host:port of the scrape target. */
  readonly scrapeAddress: string;
  readonly jobName: string;
  readonly ruleFiles?: readonly string[];
  /** More scrape jobs, as in a prometheus.yml. */
  readonly extraScrapeConfigs?: readonly object[];
  /** Scrape and rule evaluation interval (Prometheus duration), 1s by default. */
  readonly interval?: string;
  /** host:port of an Alertmanager to send alerts to. */
  readonly alertmanager?: string;
}

export async function startPrometheus(options: PrometheusOptions) {
  const dir = mkdtempSync(join(tmpdir(), 'repairmon-prometheus-'));
  const interval = options.interval ?? '1s';
  const config = {
    global: { scrape_interval: interval, scrape_timeout: interval, evaluation_interval: interval },
    rule_files: [...(options.ruleFiles ?? [])],
    ...(options.alertmanager ? { alerting: { alertmanagers: [{ static_configs: [{ targets: [options.alertmanager] }] }] } } : {}),
    scrape_configs: [
      { job_name: options.jobName, honor_labels: true, static_configs: [{ targets: [options.scrapeAddress] }] },
      ...(options.extraScrapeConfigs ?? []),
    ],
  };
  writeFileSync(join(dir, 'prometheus.yml'), stringify(config));
  const url = `http://127.0.0.1:${await freePort()}`;
  const args = [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`];
  const removeDir = (): void => rmSync(dir, { recursive: true, force: true });
  const program = await startReadyProgram(
    'prometheus',
    [PROMETHEUS_BINARY, ...args, `--web.listen-address=${url.slice('http://'.length)}`, '--log.level=warn'],
    process.env,
    `${url}/-/ready`,
    30_000,
  ).catch((error: unknown) => {
    removeDir();
    throw error;
  });
  const api = async <T>(path: string): Promise<T> => (await (await fetch(`${url}${path}`)).json()) as T;
  const query = (expr: string): Promise<QueryAnswer> => api<QueryAnswer>(`/api/v1/query?query=${encodeURIComponent(expr)}`);
  return {
    url,
    api,
    query,
    /** Resolves once `expr` returns a non-empty vector, or rejects after `timeoutMs`. */
    async waitFor(expr: string, timeoutMs: number): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const answer = await query(expr);
        if (answer.status === 'success' && answer.data.result.length > 0) return;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${expr}: ${JSON.stringify(answer)}\n${program.tail()}`);
        await sleep(250);
      }
    },
    close: () => program.stop().then(removeDir),
  };
}
