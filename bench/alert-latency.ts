/**
 * Time from each fault to its alert at the receiver, and from the fix to the resolution, through
 * a real Prometheus and Alertmanager (lib/alert-stack.ts; bench/README.md, "Alert latency, how").
 * Needs /usr/bin/prometheus and /usr/bin/prometheus-alertmanager. About a minute.
 *
 *   npm run build && node dist/bench/alert-latency.js [--schedule 1|2]
 */ import { runAlertStack } from './lib/alert-stack.js';
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
