/**
 * A real Prometheus (Debian's /usr/bin/prometheus) on a free port with a temporary TSDB,
 * scraping one address every second (or as asked) and evaluating the given rule files as
 * often, optionally sending alerts to an Alertmanager. Shared by the deploy tests and the
 * alert-latency bench; the tests reach it through test/deploy/helpers/prometheus-server.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { startProgram } from './child.js';
import { freePort } from './port.js';
import { waitForOk } from './wait-http.js';

export const PROMETHEUS_BINARY = '/usr/bin/prometheus';

export type QueryAnswer =
  | { readonly status: 'success'; readonly data: { resultType: string; result: unknown[] } }
  | { readonly status: 'error'; readonly errorType: string; readonly error: string };

export interface RunningPrometheus {
  readonly url: string;
  query(expr: string): Promise<QueryAnswer>;
  api<T>(path: string): Promise<T>;
  /** Resolves once `expr` returns a non-empty vector, or rejects after `timeoutMs`. */
  waitFor(expr: string, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export interface PrometheusOptions {
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
  readonly binary?: string;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function startPrometheus(options: PrometheusOptions): Promise<RunningPrometheus> {
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
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const program = startProgram(
    options.binary ?? PROMETHEUS_BINARY,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    process.env,
  );
  const close = async (): Promise<void> => {
    await program.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForOk(`${url}/-/ready`, 30_000, program.alive);
  } catch (error) {
    await close();
    throw new Error(`prometheus did not start: ${error instanceof Error ? error.message : String(error)}\n${program.tail()}`);
  }
  const api = async <T>(path: string): Promise<T> => (await (await fetch(`${url}${path}`)).json()) as T;
  const query = (expr: string): Promise<QueryAnswer> => api<QueryAnswer>(`/api/v1/query?query=${encodeURIComponent(expr)}`);
  return {
    url,
    api,
    query,
    async waitFor(expr, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const answer = await query(expr);
        if (answer.status === 'success' && answer.data.result.length > 0) return;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${expr}: ${JSON.stringify(answer)}\n${program.tail()}`);
        await sleep(250);
      }
    },
    close,
  };
}
