/** Is a maintenance window of the target open now? Probes pause while one is. */
import { cronWindowActive } from './config/cron.js';
import type { MaintenanceWindow, MonitorTarget } from './config/types.js';

export function openWindow(target: MonitorTarget, nowMs: number): MaintenanceWindow | undefined {
  return target.maintenance.find((w) =>
    w.kind === 'fixed' ? nowMs >= w.startMs && nowMs < w.endMs : cronWindowActive(w.cron, w.durationMs, new Date(nowMs)),
  );
}
