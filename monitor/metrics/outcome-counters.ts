/**
 * `repairmon_probes_total`, probes by outcome. By default one counter per target, endpoint,
 * check and outcome: 15 series per endpoint and check, whatever the number of keys. Counted per
 * probe (with tenant and key alias) they were 12-13 of the ~20 series each probe cost, 84 000
 * of 139 000 at 1 000 keys; "which key" is answered by the per-probe gauges instead
 * (`repairmon_probe_success`, `_failure_reason`, `_consecutive_failures`).
 * `metrics.perKeyOutcomes: true` in monitor.yaml brings the per-probe counters back.
 *
 * The per-endpoint counters are their own accumulators, never a sum over probe rows: a probe
 * removed on reload must not make a counter go down (Prometheus would read that as a reset).
 */
import { OUTCOMES, type Outcome } from '../probe/expectation.js';
import type { ProbeSpec } from '../probe/spec.js';
import { formatLabelPairs } from './exposition.js';
import { type ProbeRow, TableFamily, outcomeColumn } from './probe-table.js';

const OUTCOMES_NAME = 'repairmon_probes_total';
const OUTCOMES_HELP = 'Probes run, by outcome (every outcome pre-initialised to 0)';
const INDEX = new Map<Outcome, number>(OUTCOMES.map((o, i) => [o, i]));

/** A per-endpoint row, shaped like a probe row so the table's outcome column renders it. */
function newRow(spec: ProbeSpec): ProbeRow {
  const labels = { target: spec.target, endpoint: spec.endpointLabel, check: spec.check };
  const outcomes = new Float64Array(OUTCOMES.length);
  return { labels, prefix: formatLabelPairs(labels), gauges: {}, outcomes, reason: undefined, streak: undefined, text: [undefined] };
}

const keyOf = (spec: ProbeSpec): string => `${spec.target}\u0000${spec.endpointLabel}\u0000${spec.check}`;

/**
 * The family as the registry sees it: the per-endpoint rows, or the probe table's per-probe
 * outcome column when `perKey` is on. Shaped like a TableFamily (fast path) and a prom-client
 * metric (`get`, `reset`).
 */
export class OutcomeFamily {
  readonly aggregator = 'sum' as const;
  readonly type = 'counter' as const;
  readonly help = OUTCOMES_HELP;
  name = OUTCOMES_NAME;
  perKey = false;
  private rows = new Map<string, ProbeRow>();
  private readonly perEndpoint = new TableFamily(OUTCOMES_NAME, OUTCOMES_HELP, 'counter', () => this.rows.values(), outcomeColumn, 0);

  constructor(private readonly perProbe: TableFamily) {}

  /** Keeps the rows the plan needs (new ones at 0, in plan order) and drops the others. */
  sync(plan: readonly ProbeSpec[]): void {
    const next = new Map<string, ProbeRow>();
    for (const spec of plan) {
      const key = keyOf(spec);
      if (!next.has(key)) next.set(key, this.rows.get(key) ?? newRow(spec));
    }
    this.rows = next;
  }

  /** Counts one outcome; a probe outside the plan gets its row, as prom-client would create the series. */
  count(spec: ProbeSpec, outcome: Outcome): void {
    const key = keyOf(spec);
    let row = this.rows.get(key);
    if (!row) this.rows.set(key, (row = newRow(spec)));
    const i = INDEX.get(outcome) ?? 0;
    row.outcomes[i] = (row.outcomes[i] ?? 0) + 1;
    row.text[0] = undefined;
  }

  /** The family in force, under the name the registry gave this one. */
  private current(): TableFamily {
    const family = this.perKey ? this.perProbe : this.perEndpoint;
    family.name = this.name;
    return family;
  }

  render(): string {
    return this.current().render();
  }

  renderInto(parts: string[]): void {
    this.current().renderInto(parts);
  }

  get() {
    return this.current().get();
  }

  reset(): void {
    this.perProbe.reset();
    this.perEndpoint.reset();
  }
}
