/**
 * Cron expressions through node-cron 4, the library that runs them, so a schedule accepted
 * here is one the scheduler can run. All in UTC.
 */
import cron from 'node-cron';

export const CRON_TIMEZONE = 'Etc/UTC';

/** A target's maintenance window: a cron start with a duration, or a fixed span. */
export type MaintenanceWindow =
  | { readonly kind: 'cron'; readonly cron: string; readonly durationMs: number; readonly reason: string | undefined }
  | { readonly kind: 'fixed'; readonly startMs: number; readonly endMs: number; readonly reason: string | undefined };

/** Each field's name and bounds, seconds first; a 5-field expression starts at minutes. */
const FIELDS = [
  { name: 'seconds', min: 0, max: 59 },
  { name: 'minutes', min: 0, max: 59 },
  { name: 'hours', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  // 0 and 7 are both Sunday: a week has 7 days, so a step spans at most 6.
  { name: 'day-of-week', min: 0, max: 6 },
] as const;

/**
 * Steps node-cron accepts but that do not mean what they say: a step of 61 in the seconds field
 * fires once a minute (it reads as "every 61 s"), a step of 25 in hours once a day. A step must
 * be at least 1 and at most the span of its range, so it fires more than once per cycle.
 */
export function cronStepProblems(expression: string): string[] {
  const fields = expression.trim().split(/\s+/);
  const specs = fields.length === 5 ? FIELDS.slice(1) : FIELDS;
  const problems: string[] = [];
  fields.forEach((field, i) => {
    const spec = specs[i];
    if (!spec) return;
    for (const part of field.split(',')) {
      const match = /^(\*|(\d+)-(\d+))\/(\d+)$/.exec(part);
      if (!match) continue;
      const low = match[2] === undefined ? spec.min : Number(match[2]);
      const high = match[3] === undefined ? spec.max : Math.min(Number(match[3]), spec.max);
      const step = Number(match[4]);
      const span = high - low;
      if (step < 1 || step > span) {
        problems.push(
          `step "${part}" in the ${spec.name} field is out of range: it must be 1 to ${Math.max(span, 1)} (${spec.name} run ${spec.min}-${spec.max})`,
        );
      }
    }
  });
  return problems;
}

export function cronProblem(expression: string): string | undefined {
  const fields = expression.trim().split(/\s+/);
  if (fields.length < 5 || fields.length > 6) return `must have 5 or 6 fields, got ${fields.length}`;
  const steps = cronStepProblems(expression);
  if (steps.length > 0) return steps.join('; ');
  const check = cron.validateDetailed(expression);
  if (check.valid) return undefined;
  return check.errors.map((e) => `${e.field}: ${e.message}`).join('; ') || 'is not a valid cron expression';
}

/**
 * The shortest gap between consecutive fires over the next few runs: the time a tick has to
 * finish in, which the per-probe timeout must stay below.
 */
export function shortestIntervalMs(expression: string): number {
  const task = cron.createTask(expression, () => undefined, { timezone: CRON_TIMEZONE });
  const runs = task.getNextRuns(12);
  void task.destroy();
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

/** The maintenance window of the target open now, if any: probes pause while one is. */
export function openWindow(target: { readonly maintenance: readonly MaintenanceWindow[] }, nowMs: number): MaintenanceWindow | undefined {
  return target.maintenance.find((w) =>
    w.kind === 'fixed' ? nowMs >= w.startMs && nowMs < w.endMs : cronWindowActive(w.cron, w.durationMs, new Date(nowMs)),
  );
}
