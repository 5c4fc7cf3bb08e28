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
import { escapeLabelValue, familyHeader, formatLabelPairs, formatValue } from './exposition.js';
import type { FamilyObject, SeriesValue, TableFamily } from './probe-table.js';

const OUTCOMES_NAME = 'repairmon_probes_total';
const OUTCOMES_HELP = 'Probes run, by outcome (every outcome pre-initialised to 0)';
const SEP = '\u0000';

/** The per-endpoint label set, in this order. */
type EndpointOutcomeLabels = ReturnType<typeof endpointOutcomeLabels>;

interface CounterRow {
  readonly labels: EndpointOutcomeLabels;
  readonly prefix: string;
  readonly counts: Float64Array;
  /** Rendered lines, cleared on every count. */
  text: string | undefined;
}

const SUFFIXES = OUTCOMES.map((o) => `,outcome="${escapeLabelValue(o)}"} `);
const INDEX = new Map<Outcome, number>(OUTCOMES.map((o, i) => [o, i]));

function endpointOutcomeLabels(spec: ProbeSpec) {
  return { target: spec.target, endpoint: spec.endpointLabel, check: spec.check };
}

const keyOf = (l: EndpointOutcomeLabels): string => `${l.target}${SEP}${l.endpoint}${SEP}${l.check}`;

function newRow(labels: EndpointOutcomeLabels): CounterRow {
  return { labels, prefix: formatLabelPairs({ ...labels }), counts: new Float64Array(OUTCOMES.length), text: undefined };
}

function rowLines(row: CounterRow, name: string): string {
  const parts: string[] = [];
  for (let i = 0; i < SUFFIXES.length; i += 1) parts.push('\n', name, '{', row.prefix, SUFFIXES[i] ?? '', formatValue(row.counts[i] ?? 0));
  return parts.join('');
}

/**
 * The family as the registry sees it: it renders the per-endpoint rows, or the probe table's
 * per-probe outcome column when `perKey` is on. Shaped like a TableFamily (fast path) and a
 * prom-client metric (`get`, `reset`).
 */
export class OutcomeFamily {
  readonly aggregator = 'sum' as const;
  readonly type = 'counter' as const;
  readonly help = OUTCOMES_HELP;
  name = OUTCOMES_NAME;
  perKey = false;
  private rows = new Map<string, CounterRow>();

  constructor(private readonly perProbe: TableFamily) {}

  /** Keeps the rows the plan needs (new ones at 0, in plan order) and drops the others. */
  sync(plan: readonly ProbeSpec[]): void {
    const next = new Map<string, CounterRow>();
    for (const spec of plan) {
      const labels = endpointOutcomeLabels(spec);
      const key = keyOf(labels);
      if (!next.has(key)) next.set(key, this.rows.get(key) ?? newRow(labels));
    }
    this.rows = next;
  }

  /** Counts one outcome; a probe outside the plan gets its row, as prom-client would create the series. */
  count(spec: ProbeSpec, outcome: Outcome): void {
    const labels = endpointOutcomeLabels(spec);
    const key = keyOf(labels);
    let row = this.rows.get(key);
    if (!row) this.rows.set(key, (row = newRow(labels)));
    const i = INDEX.get(outcome) ?? 0;
    row.counts[i] = (row.counts[i] ?? 0) + 1;
    row.text = undefined;
  }

  render(): string {
    const parts: string[] = [];
    this.renderInto(parts);
    return parts.join('');
  }

  renderInto(parts: string[]): void {
    if (this.perKey) {
      this.perProbe.name = this.name;
      this.perProbe.renderInto(parts);
      return;
    }
    parts.push(familyHeader(this.name, this.help, this.type));
    for (const row of this.rows.values()) parts.push((row.text ??= rowLines(row, this.name)));
  }

  async get(): Promise<FamilyObject> {
    if (this.perKey) return { ...(await this.perProbe.get()), name: this.name };
    const values: SeriesValue[] = [];
    for (const row of this.rows.values())
      OUTCOMES.forEach((outcome, i) => values.push({ value: row.counts[i] ?? 0, labels: { ...row.labels, outcome } }));
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.perProbe.reset();
    for (const row of this.rows.values()) {
      row.counts.fill(0);
      row.text = undefined;
    }
  }
}
