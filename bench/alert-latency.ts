/**
 * Time from a fault to its alert at the pager, and from the fix to the resolution, through a
 * real Prometheus (the shipped rules) and a real Alertmanager (the shipped routing) to a webhook:
 * an HTML 502, latency past the timeout, a rate-limit storm, a tenant-isolation breach, a revoked
 * key, a misspelt tenant and a stopped monitor, all at once, each on its own target. The monitor
 * runs a 1 s schedule and every rule and routing duration is divided by 30 (the default schedule
 * is 30 s); the table shows the seconds measured and, multiplied back, about what the default
 * schedule gives. Needs /usr/bin/prometheus and /usr/bin/prometheus-alertmanager. ~2.5 minutes.
 *
 *   npm run build && node dist/bench/alert-latency.js [--schedule 1|2]
 */
import { runAlertStack } from './lib/alert-stack.js';
import type { AlertStackResult } from './lib/alert-measure.js';
import { renderAlertTable, writeAlertResult } from './lib/alert-report.js';
import { isEntryPoint, numberFlag } from './lib/cli.js';

export async function run(options: { scheduleSeconds?: number; log?: (line: string) => void } = {}): Promise<AlertStackResult> {
  const result = await runAlertStack({ scheduleSeconds: options.scheduleSeconds ?? 1, ...(options.log ? { log: options.log } : {}) });
  await writeAlertResult(result);
  return result;
}

export const describeAlertLatency = renderAlertTable;

if (isEntryPoint(import.meta.url)) {
  const scheduleSeconds = numberFlag(process.argv, 'schedule', { min: 1, max: 2 });
  const result = await run({ ...(scheduleSeconds ? { scheduleSeconds } : {}), log: (line) => console.error(line) });
  console.log(renderAlertTable(result));
}
