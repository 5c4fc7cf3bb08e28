/**
 * Time from each fault to its alert at the receiver, and from the fix to the resolution, through
 * a real Prometheus and Alertmanager (lib/alert-stack.ts; bench/README.md, "Alert latency, how").
 * Needs /usr/bin/prometheus and /usr/bin/prometheus-alertmanager. About a minute.
 *
 *   npx tsc -p bench/tsconfig.json && node dist/bench/alert-latency.js [--schedule 1|2]
 */
import { runAlertStack } from './lib/alert-stack.js';
import type { AlertStackResult } from './lib/alert-measure.js';
import { renderAlertTable, writeAlertResult } from './lib/alert-report.js';
import { isEntryPoint, numberFlag } from './lib/cli.js';

/** Whole outages measured beside the faults' own: the summary's page figure is the median of five. */
const OUTAGE_SAMPLES = 4;

export async function run(options: Parameters<typeof runAlertStack>[0] = {}): Promise<AlertStackResult> {
  const result = await runAlertStack({ outageSamples: OUTAGE_SAMPLES, ...options });
  await writeAlertResult(result);
  return result;
}

if (isEntryPoint(import.meta.url)) {
  const result = await run({
    scheduleSeconds: numberFlag(process.argv, 'schedule', { min: 1, max: 2 }),
    log: (line) => console.error(line),
  });
  console.log(renderAlertTable(result));
}
