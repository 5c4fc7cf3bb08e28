/**
 * Cron expressions through node-cron 4, the library that runs them, so a schedule accepted
 * here is one the scheduler can run. All in UTC.
 */
import cron from 'node-cron';

export const CRON_TIMEZONE = 'Etc/UTC';

export function cronProblem(expression: string): string | undefined {
  const fields = expression.trim().split(/\s+/);
  if (fields.length < 5 || fields.length > 6) return `must have 5 or 6 fields, got ${fields.length}`;
  const check = cron.validateDetailed(expression);
  if (check.valid) return undefined;
  return check.errors.map((e) => `${e.field}: ${e.message}`).join('; ') || 'is not a valid cron expression';
}

/** The next `count` fire times after now; a throwaway task, destroyed before returning. */
export function nextRuns(expression: string, count: number): Date[] {
  const task = cron.createTask(expression, () => undefined, { timezone: CRON_TIMEZONE });
  try {
    return task.getNextRuns(count);
  } finally {
    void task.destroy();
  }
}

/**
 * The shortest gap between consecutive fires over the next few runs: the time a tick has to
 * finish in, which the per-probe timeout must stay below.
 */
export function shortestIntervalMs(expression: string): number {
  const runs = nextRuns(expression, 12);
  let shortest = Number.POSITIVE_INFINITY;
  for (let i = 1; i < runs.length; i += 1) {
    const gap = (runs[i]?.getTime() ?? 0) - (runs[i - 1]?.getTime() ?? 0);
    if (gap > 0) shortest = Math.min(shortest, gap);
  }
  return Number.isFinite(shortest) ? shortest : 24 * 3_600_000;
}

/** Whether a cron-style window started within the last `durationMs` (minute resolution). */
export function cronWindowActive(expression: string, durationMs: number, now: Date): boolean {
  const task = cron.createTask(expression, () => undefined, { timezone: CRON_TIMEZONE });
  try {
    const start = Math.floor(now.getTime() / 60_000) * 60_000;
    for (let t = start; t > now.getTime() - durationMs; t -= 60_000) {
      if (task.match(new Date(t))) return true;
    }
    return false;
  } finally {
    void task.destroy();
  }
}
