import { createLogger } from '../../lib/logger.js';
import { type DemoConfigOptions, demoConfig } from '../../monitor/demo-config.js';
import type { HistoryEntry } from '../../monitor/history.js';
import { type Monitor, type MonitorDeps, createMonitor } from '../../monitor/service.js';
import { type RunningSandbox, startSandbox } from '../../sandbox/index.js';

export const silent = createLogger({ level: 'silent' });

export interface Rig {
  readonly sandbox: RunningSandbox;
  readonly monitor: Monitor;
  close(): Promise<void>;
}

export async function startRig(
  options: DemoConfigOptions = {},
  deps: Partial<MonitorDeps> = {},
  sandboxOptions: Parameters<typeof startSandbox>[0] = {},
): Promise<Rig> {
  const sandbox = await startSandbox(sandboxOptions);
  const monitor = createMonitor(demoConfig(sandbox, { timeoutMs: 5_000, ...options }), { logger: silent, ...deps });
  return {
    sandbox,
    monitor,
    async close() {
      await monitor.stop();
      await sandbox.close();
    },
  };
}

/** The latest history entry of a probe, found by its parts. */
export function latest(monitor: Monitor, match: Partial<Pick<HistoryEntry, 'keyAlias' | 'tenant' | 'endpoint' | 'check'>>): HistoryEntry {
  const found = monitor.history.recent().find((e) => Object.entries(match).every(([k, v]) => e[k as keyof HistoryEntry] === v));
  if (!found) throw new Error(`no history entry matching ${JSON.stringify(match)}`);
  return found;
}

/** The value of one series in a Prometheus text exposition, or undefined. */
export function seriesValue(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf('}'));
    const pairs = Object.fromEntries([...body.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!] as const));
    if (Object.entries(labels).every(([k, v]) => pairs[k] === v)) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}
