/** The alert-latency figures as a table (what the bench and the test print) and as JSON under bench/results/. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AlertStackResult, FaultMeasurement } from './alert-measure.js';
import { packageRoot } from '../../lib/index.js';
import { columnTable, fixed } from './stats.js';

const seconds = (s: number | undefined): string => (s === undefined ? 'n/a' : fixed(s, 1));

/** Seconds at the measured schedule, and what they are multiplied back to the default schedule. */
function both(s: number | undefined, factor: number): string {
  if (s === undefined) return 'n/a';
  const atDefault = s * factor;
  return `${seconds(s)} s (~${atDefault >= 120 ? `${fixed(atDefault / 60, 1)} min` : `${Math.round(atDefault)} s`})`;
}

export function renderAlertTable(result: AlertStackResult): string {
  const time = (s: number | undefined): string => both(s, result.factor);
  const falseOnes = (m: FaultMeasurement): string => {
    const wrong = m.falseNotifications ?? [];
    return wrong.length === 0 ? '0' : `${wrong.length}: ${wrong.map((w) => `${w.alertname} (${w.severity}) ${w.status}`).join('; ')}`;
  };
  const others = (m: FaultMeasurement): string =>
    m.others.map((o) => `${o.alertname} (${o.severity}) ${seconds(o.fireSeconds)}/${seconds(o.resolveSeconds)} s`).join('; ') || '-';
  const table = columnTable(result.faults, [
    ['fault', (m) => m.fault, 'left'],
    ['alert', (m) => `${m.expect.alertname} (${m.expect.severity})`, 'left'],
    ['receiver', (m) => m.fired?.receiver ?? 'none', 'left'],
    ['time to fire', (m) => time(m.fireSeconds), 'left'],
    ['notifications', (m) => String(m.notifications ?? 'n/a'), 'left'],
    ['page groups', (m) => String(m.pageGroups ?? 'n/a'), 'left'],
    ['time to resolve (all)', (m) => (m.allResolvedSeconds === undefined ? 'not all' : time(m.allResolvedSeconds)), 'left'],
    ['flap', (m) => (m.flapped ? 'FLAPPED' : 'no'), 'left'],
    ['false notifications', falseOnes, 'left'],
    ['also fired (fire/resolve)', others, 'left'],
  ]);
  const note =
    `schedule ${result.scheduleSeconds} s, every rule and routing duration divided by ${result.factor} (holds over ${result.holdCapMinutes ?? 5} min cut to that), Prometheus scrape and evaluation every ${result.prometheusIntervalSeconds} s. ` +
    `In brackets: x${result.factor}, what the default ${result.scheduleSeconds * result.factor} s schedule with Prometheus every ${result.prometheusIntervalSeconds * result.factor} s gives.`;
  const unexpected =
    result.unexpected.length === 0
      ? 'no unexpected alert'
      : `UNEXPECTED: ${result.unexpected.map((u) => JSON.stringify(u.labels)).join(', ')}`;
  const ratio =
    result.healthyLogsReadRatio === undefined ? '' : `; healthy target's logs read ratio ${fixed(result.healthyLogsReadRatio, 3)}`;
  return `${table}\n${note}\n${unexpected}${ratio}; ${fixed(result.wallSeconds, 0)} s wall, ${result.startedAt}`;
}

/** Writes the figures to bench/results/alert-latency.json and a timestamped copy; returns the latter's path. */
export async function writeAlertResult(result: AlertStackResult, dir = join(packageRoot(), 'bench', 'results')): Promise<string> {
  await mkdir(dir, { recursive: true });
  const json = `${JSON.stringify(result, null, 2)}\n`;
  const file = join(dir, `alert-latency-${result.startedAt.replace(/[:.]/g, '-')}.json`);
  await writeFile(file, json);
  await writeFile(join(dir, 'alert-latency.json'), json);
  return file;
}
