/**
 * Time to fire and time to resolve, end to end (bench/README.md, "Alert latency, how"): the
 * monitor on a fast schedule probing one sandbox per fault, a real Prometheus with the shipped
 * rules, a real Alertmanager with the shipped routing, and a webhook receiver; every duration
 * divided by the same factor (rule-scaling.ts), so the times multiplied back are what the
 * default setup gives (up to the fixed costs: a process start, an HTTP round trip).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger, packageRoot } from '../../lib/index.js';
import { type Monitor, configKeys, createMonitor, createMonitorServer } from '../../monitor/index.js';
import { type RunningSandbox, startSandbox } from '../../sandbox/index.js';
import { FAULTS, NEVER, SECOND_MONITOR_TARGET, type StackHandles } from './alert-faults.js';
import {
  type ConfigFaults,
  NO_CONFIG_FAULTS,
  STACK_TARGETS,
  type StackTarget,
  outageSampleTarget,
  stackConfig,
} from './alert-stack-config.js';
import { startAlertmanager } from './alertmanager-server.js';
import { benchMonitorYaml, startMonitorProcess } from './monitor-process.js';
import { freePort } from './port.js';
import { startPrometheus } from './prometheus-server.js';
import { scaleAlertmanager, scaleRules } from './rule-scaling.js';
import { type WebhookReceiver, labelsMatch, startWebhookReceiver } from './webhook-receiver.js';
import { type AlertStackResult, measureFault, tally } from './alert-measure.js';

/** The schedule the shipped rules and routing are written for. */
const DEFAULT_SCHEDULE_SECONDS = 30;
/** Scrape and evaluation interval of the example prometheus.yml. */
const DEFAULT_PROMETHEUS_SECONDS = 15;

/**
 * The longest `for` or `keep_firing_for` here, by default: 5 minutes at the default schedule. The
 * stack shows that each alert fires, holds and resolves; how long a 15-minute `for` or an hour's
 * hold lasts is the promtool tests' to assert (deploy/prometheus/tests), not waited out here.
 */
const LIVE_HOLD_CAP_MS = 300_000;

/**
 * The rule files as shipped, every duration divided by `factor`, long holds capped. The
 * burn-rate windows stay whole: this Prometheus is minutes old, so the 1 d and 3 d windows
 * hold its whole life, which is the young Prometheus every fresh install has.
 */
function scaledRuleFiles(dir: string, factor: number, holdCapMs: number): string[] {
  const source = join(packageRoot(), 'deploy', 'prometheus');
  return ['recording-rules.yml', 'alerting-rules.yml'].map((name) => {
    const file = join(dir, name);
    writeFileSync(file, scaleRules(readFileSync(join(source, name), 'utf8'), factor, { maxHoldMs: holdCapMs / factor }));
    return file;
  });
}

/** Serialised reloads of the monitor, one per change of the config faults. */
function configSwitch(
  monitor: Monitor,
  build: (f: ConfigFaults) => ReturnType<typeof stackConfig>,
): (name: keyof ConfigFaults, on: boolean) => Promise<void> {
  let faults = NO_CONFIG_FAULTS;
  let chain = Promise.resolve();
  return (name, on) => {
    chain = chain.then(async () => {
      faults = { ...faults, [name]: on };
      const result = await monitor.reload({ ok: true, config: build(faults) });
      if (!result.ok) throw new Error(`reload refused: ${JSON.stringify(result.issues)}`);
    });
    return chain;
  };
}

/** Waits until Prometheus scrapes both monitors and sees a probe of every target. */
async function warmUp(query: (expr: string) => Promise<number>, expected: number, log: (line: string) => void): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const up = await query('count(up{job=~"repairmon.*"} == 1)');
    const targets = await query('count(count by (target) (repairmon_probe_success{job="repairmon"}))');
    if (up === 2 && targets === expected) return;
    if (Date.now() > deadline) throw new Error(`the stack did not warm up: ${up} monitors up, ${targets} targets seen`);
    log(`warming up: ${up} monitors up, ${targets}/${expected} targets seen`);
    await sleep(1_000);
  }
}

/**
 * More whole outages, each on its own target like `outage`, injected one after another at
 * staggered points of the schedule's and the scrape's intervals (the main faults start at the
 * first): seconds from each injection to its target's first page. One sample lands wherever it
 * lands against a 30 s schedule and a 15 s scrape and evaluation; their median does not.
 */
async function outagePages(
  sandboxes: readonly RunningSandbox[],
  webhook: WebhookReceiver,
  scheduleSeconds: number,
): Promise<Array<number | undefined>> {
  return Promise.all(
    sandboxes.map(async (sandbox, i) => {
      await sleep(((i + 1) / (sandboxes.length + 1)) * 1000 * scheduleSeconds);
      const injectedAt = Date.now();
      sandbox.setFaults('html-502');
      const page = await webhook.waitFor({ target: outageSampleTarget(i), severity: 'page' }, 'firing', injectedAt, 90_000);
      sandbox.setFaults('');
      return page === undefined ? undefined : (page.notification.at - injectedAt) / 1000;
    }),
  );
}

/**
 * `scheduleSeconds`: the monitor's, 1 or 2 s; `holdCapMs`: the longest `for` or `keep_firing_for`,
 * in ms at the default schedule; `outageSamples`: whole outages measured beside the faults' own.
 */
export async function runAlertStack(
  options: { scheduleSeconds?: number; holdCapMs?: number; outageSamples?: number; log?: (line: string) => void } = {},
): Promise<AlertStackResult> {
  const scheduleSeconds = options.scheduleSeconds ?? 1;
  const factor = DEFAULT_SCHEDULE_SECONDS / scheduleSeconds;
  const log = options.log ?? (() => undefined);
  const holdCapMs = options.holdCapMs ?? LIVE_HOLD_CAP_MS;
  const started = Date.now();
  const schedule = scheduleSeconds === 1 ? '* * * * * *' : `*/${scheduleSeconds} * * * * *`;
  // 0.9 of the interval, not the default's third of it scaled (333 ms): on a loaded 2-core
  // machine a scaled timeout turned CPU stalls into timeouts, and the burn-rate page then fired
  // for the healthy target too. The latency fault (1.5 s) is past either.
  const timeout = `${Math.round(scheduleSeconds * 900)}ms`;
  const dir = mkdtempSync(join(tmpdir(), 'repairmon-alert-stack-'));
  const closers: Array<() => Promise<unknown>> = [async () => rmSync(dir, { recursive: true, force: true })];
  const close = async (): Promise<void> => {
    for (const c of closers.reverse()) await c().catch(() => undefined);
  };
  try {
    const webhook: WebhookReceiver = await startWebhookReceiver();
    closers.push(() => webhook.close());
    const amConfig = scaleAlertmanager(
      readFileSync(join(packageRoot(), 'deploy', 'alertmanager', 'alertmanager.yml'), 'utf8'),
      factor,
      webhook.url,
    );
    const alertmanager = await startAlertmanager(amConfig);
    closers.push(() => alertmanager.close());

    const entries = await Promise.all([...STACK_TARGETS, 'second' as const].map(async (t) => [t, await startSandbox({})] as const));
    const sandboxes = Object.fromEntries(entries) as Record<StackTarget | 'second', RunningSandbox>;
    closers.push(() => Promise.all(entries.map(([, s]) => s.close())));
    const outageSandboxes = await Promise.all(Array.from({ length: options.outageSamples ?? 0 }, () => startSandbox({})));
    closers.push(() => Promise.all(outageSandboxes.map((s) => s.close())));
    const build = (f: ConfigFaults) => stackConfig({ sandboxes, outageSamples: outageSandboxes, schedule, timeout }, f);
    const config = build(NO_CONFIG_FAULTS);
    const logger = createLogger({ level: 'silent', secrets: () => configKeys(config) });
    const monitor = createMonitor(config, { logger, roundOnStart: true });
    const server = await createMonitorServer(monitor, { host: '127.0.0.1', port: 0, logger });
    closers.push(() => monitor.stop());
    closers.push(() => server.close());
    await monitor.start();

    // The second monitor, a real `repairmon serve` process, is the one the stopped-monitor fault stops.
    // Stopped and started again on this port by a fault: one no other test's listen(0) can take meanwhile.
    const secondPort = await freePort();
    const secondFile = join(dir, 'monitor.yaml');
    const secondYaml = benchMonitorYaml({
      baseUrl: sandboxes.second.baseUrl,
      keys: 1,
      tenant: 'rowery-nowak',
      schedule,
      timeout,
      canaries: false,
    });
    writeFileSync(secondFile, secondYaml, { mode: 0o600 });
    const startSecond = () => startMonitorProcess(secondFile, sandboxes.second.key('nowak-test').key, { port: secondPort });
    let second: Awaited<ReturnType<typeof startSecond>> | undefined = await startSecond();
    closers.push(async () => second?.close());

    const prometheus = await startPrometheus({
      scrapeAddress: server.url.replace(/^http:\/\//, ''),
      jobName: 'repairmon',
      extraScrapeConfigs: [
        { job_name: 'repairmon-second', honor_labels: true, static_configs: [{ targets: [`127.0.0.1:${secondPort}`] }] },
      ],
      ruleFiles: scaledRuleFiles(dir, factor, holdCapMs),
      alertmanager: alertmanager.address,
      interval: `${Math.round((DEFAULT_PROMETHEUS_SECONDS * 1000) / factor)}ms`,
    });
    closers.push(() => prometheus.close());
    const scalar = async (expr: string): Promise<number> => {
      const answer = await prometheus.query(expr);
      const first = answer.status === 'success' ? (answer.data.result[0] as { value?: [number, string] } | undefined) : undefined;
      return Number(first?.value?.[1] ?? 0);
    };
    await warmUp(scalar, STACK_TARGETS.length + outageSandboxes.length, log);
    // A few intervals of healthy history before anything breaks.
    await sleep(5_000 * scheduleSeconds);

    const handles: StackHandles = {
      sandbox: (t) => sandboxes[t],
      setConfigFault: configSwitch(monitor, build),
      stopSecondMonitor: async () => {
        await second?.close();
        second = undefined;
      },
      startSecondMonitor: async () => {
        second = await startSecond();
      },
      firing: async (labels) => {
        if (!(await webhook.waitFor(labels, 'firing', started, 90_000))) throw new Error(`${JSON.stringify(labels)} never fired`);
      },
    };
    const injectedFrom = Date.now();
    log(`injecting ${FAULTS.length} faults at once`);
    const [measured, outageSamplePages] = await Promise.all([
      Promise.all(FAULTS.map((f) => measureFault(f, handles, webhook, { scheduleSeconds, log }))),
      outagePages(outageSandboxes, webhook, scheduleSeconds),
    ]);
    await sleep(2_000 * scheduleSeconds);
    const measurements = measured.map(({ measurement, since }, i) => tally(FAULTS[i]!, webhook, measurement, since));
    // The second monitor's target pages on purpose (the stopped-monitor fault's precondition).
    const unexpected = webhook
      .notifications()
      .flatMap((n) =>
        n.alerts
          .filter(
            (a) =>
              a.status === 'firing' &&
              ((n.at < injectedFrom && a.labels['target'] !== SECOND_MONITOR_TARGET) ||
                NEVER.some((labels) => labelsMatch(a.labels, labels))),
          )
          .map((a) => ({ receiver: n.receiver, labels: a.labels, at: n.at })),
      );
    return {
      startedAt: new Date(started).toISOString(),
      scheduleSeconds,
      factor,
      prometheusIntervalSeconds: DEFAULT_PROMETHEUS_SECONDS / factor,
      holdCapMinutes: holdCapMs / 60_000,
      faults: measurements,
      outageSamplePages,
      unexpected,
      healthyLogsReadRatio: await scalar('target_endpoint:repairmon_probe_success:ratio_rate10m{target="healthy", endpoint="logs"}'),
      wallSeconds: (Date.now() - started) / 1000,
    };
  } finally {
    await close();
  }
}
