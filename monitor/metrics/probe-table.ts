/**
 * Per-probe series as one row per probe, rendered by plain string building.
 *
 * Why: at 1 000 tenant keys (~7 000 probes) the per-probe families hold tens of thousands of
 * series. As prom-client Gauges/Counters every scrape re-formatted and re-escaped every label
 * set, and `/metrics` over HTTP took 510-620 ms p50 on this 2-core machine; issue 9 wants
 * < 250 ms. Here the five probe labels are escaped once per plan sync into a prefix, each row
 * caches its lines per family until its next record, and a scrape is one join (see
 * `bench/monitor-scale.ts`), with ~35% less heap (no labels object per series). Names, label
 * sets and values stay byte for byte what prom-client 15 writes, as the ops rules in
 * deploy/prometheus/ depend on them (checked against prom-client in tests).
 *
 * `repairmon_probes_total` is counted per target, endpoint and check by default: 15 series per
 * endpoint and check, whatever the number of keys (per probe they were 84 000 of 139 000 series
 * at 1 000 keys; "which key" is answered by the per-probe gauges). Those counters are their own
 * accumulators, never a sum over probe rows: a probe removed on reload must not make a counter go
 * down (Prometheus would read that as a reset). `metrics.perKeyOutcomes` counts per probe instead.
 */
import { OUTCOMES, type Outcome } from '../probe/expectation.js';
import { type FailureClass, NO_STREAK, type Streak, nextStreak } from '../probe/failure-class.js';
import type { ProbeSpec } from '../probe/spec.js';

/** Only names chosen by us or the config go in a label: never a key, a URL or an error message. */
export const PROBE_LABELS = ['target', 'endpoint', 'tenant', 'key_alias', 'check'] as const;
export type ProbeLabels = Record<(typeof PROBE_LABELS)[number], string>;

export function probeLabels(spec: ProbeSpec): ProbeLabels {
  return { target: spec.target, endpoint: spec.endpointLabel, tenant: spec.tenant, key_alias: spec.keyAlias, check: spec.check };
}

/** prom-client's `escapeLabelValue`: backslash, newline, then the double quote. */
function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

/** prom-client's `getValueAsString` (it writes NaN as `Nan`, which Prometheus parses). */
export function formatValue(value: number): string {
  if (Number.isFinite(value)) return `${value}`;
  if (Number.isNaN(value)) return 'Nan';
  return value < 0 ? '-Inf' : '+Inf';
}

const GAUGE_FIELDS = ['success', 'lastDuration', 'status', 'items', 'lastRun', 'lastSuccess'] as const;
type GaugeField = (typeof GAUGE_FIELDS)[number];

interface ProbeRow {
  /** The probe's labels (an outcome counter's row per endpoint holds fewer). */
  readonly labels: Readonly<Record<string, string>>;
  /** `target="..",endpoint="..",tenant="..",key_alias="..",check=".."`, escaped. */
  readonly prefix: string;
  /** Undefined until first set: a never-set gauge has no series, as with prom-client. */
  readonly gauges: { [F in GaugeField]?: number };
  /** Count per outcome, indexed like OUTCOMES; all 0 from the start. */
  readonly outcomes: Float64Array;
  /** The last failure reason (raw and escaped); undefined until the first record. */
  reason: { readonly value: string; readonly escaped: string } | undefined;
  /** The current run of failures of one class; `none` from the plan sync on. */
  streak: Streak;
  /** Each family's rendered lines for this row, by family slot; cleared when the row changes. */
  readonly text: Array<string | undefined>;
}

/** What one probe result writes into its row; an absent gauge keeps its value. */
interface RowUpdate {
  readonly gauges: { readonly [F in GaugeField]?: number | undefined };
  readonly outcome: Outcome;
  readonly reason: string;
  /** Whose failure this was (`none` on success): extends or breaks the row's streak. */
  readonly failure: FailureClass;
  /** False for a recheck: the state changes, the outcome counters (the SLIs' samples) do not. */
  readonly counted: boolean;
}

/** A row's exposition lines for one family, each led by '\n'; '' when the row has no series there. */
type Column = (row: ProbeRow, name: string) => string;

/**
 * Joins into a flat string. Lines are cached per row and joined again on every scrape; a
 * template literal or `+=` would cache a rope, and re-walking ropes made the join ~3x slower.
 */
const flat = (parts: readonly string[]): string => parts.join('');

/** A metric family over rows, registered in a MonitorRegistry, which renders it through `renderInto`. */
export class TableFamily {
  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly type: 'gauge' | 'counter',
    private readonly rows: () => Iterable<ProbeRow>,
    private readonly column: Column,
    /** Where this family caches its lines in each row's `text`. */
    private readonly slot: number,
  ) {}

  /** Appends the family's text in pieces: rows unchanged since the last scrape reuse their cached lines. */
  renderInto(parts: string[]): void {
    parts.push(`# HELP ${this.name} ${this.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}\n# TYPE ${this.name} ${this.type}`);
    for (const row of this.rows()) {
      let lines = row.text[this.slot];
      if (lines === undefined) row.text[this.slot] = lines = this.column(row, this.name);
      parts.push(lines);
    }
  }
}

const gaugeColumn =
  (field: GaugeField): Column =>
  (row, name) => {
    const v = row.gauges[field];
    return v === undefined ? '' : flat(['\n', name, '{', row.prefix, '} ', formatValue(v)]);
  };

const OUTCOME_SUFFIXES = OUTCOMES.map((o) => `,outcome="${escapeLabelValue(o)}"} `);

const outcomeColumn: Column = (row, name) => {
  const parts: string[] = [];
  for (let i = 0; i < OUTCOME_SUFFIXES.length; i += 1)
    parts.push('\n', name, '{', row.prefix, OUTCOME_SUFFIXES[i] ?? '', formatValue(row.outcomes[i] ?? 0));
  return flat(parts);
};

const reasonColumn: Column = (row, name) =>
  row.reason === undefined ? '' : flat(['\n', name, '{', row.prefix, ',reason="', row.reason.escaped, '"} 1']);

/** The streak's class as a label; its length as the value. */
const streakColumn: Column = (row, name) =>
  flat(['\n', name, '{', row.prefix, ',class="', row.streak.class, '"} ', formatValue(row.streak.count)]);

const OUTCOME_INDEX = new Map<Outcome, number>(OUTCOMES.map((o, i) => [o, i]));

const FAMILY_COUNT = 9;

function newRow(labels: Readonly<Record<string, string>>): ProbeRow {
  let prefix = '';
  for (const [name, value] of Object.entries(labels)) prefix += `${prefix === '' ? '' : ','}${name}="${escapeLabelValue(value)}"`;
  // The streak starts at "no failure" when the probe is planned, so a probe added by a reload
  // shows on /metrics at once, before its first run.
  const outcomes = new Float64Array(OUTCOMES.length);
  return { labels, prefix, gauges: {}, outcomes, reason: undefined, streak: NO_STREAK, text: new Array<string | undefined>(FAMILY_COUNT) };
}

function count(row: ProbeRow, outcome: Outcome): void {
  const i = OUTCOME_INDEX.get(outcome) ?? 0;
  row.outcomes[i] = (row.outcomes[i] ?? 0) + 1;
}

function applyUpdate(row: ProbeRow, update: RowUpdate): void {
  for (const field of GAUGE_FIELDS) {
    const value = update.gauges[field];
    if (value !== undefined) row.gauges[field] = value;
  }
  if (update.counted) count(row, update.outcome);
  if (row.reason?.value !== update.reason) row.reason = { value: update.reason, escaped: escapeLabelValue(update.reason) };
  row.streak = nextStreak(row.streak, update.failure);
  row.text.fill(undefined);
}

const sameLabels = (a: Readonly<Record<string, string>>, b: ProbeLabels): boolean => PROBE_LABELS.every((k) => a[k] === b[k]);

const endpointLabels = (spec: ProbeSpec) => ({ target: spec.target, endpoint: spec.endpointLabel, check: spec.check });
const endpointKey = (spec: ProbeSpec): string => `${spec.target}\u0000${spec.endpointLabel}\u0000${spec.check}`;

export type ProbeTable = ReturnType<typeof createProbeTable>;

export function createProbeTable(perKeyOutcomes: boolean) {
  let rows = new Map<string, ProbeRow>();
  /** The outcome counters per target, endpoint and check. */
  let perEndpoint = new Map<string, ProbeRow>();
  const table = { perKeyOutcomes };
  let slot = 0;
  const family = (name: string, help: string, type: 'gauge' | 'counter', column: Column, all = () => rows.values()): TableFamily =>
    new TableFamily(name, help, type, all, column, slot++);
  const gauge = (name: string, help: string, field: GaugeField): TableFamily => family(name, help, 'gauge', gaugeColumn(field));
  const families = {
    success: gauge('repairmon_probe_success', '1 when the last outcome was the expected one, else 0', 'success'),
    total: family('repairmon_probes_total', 'Probes run, by outcome (every outcome pre-initialised to 0)', 'counter', outcomeColumn, () =>
      table.perKeyOutcomes ? rows.values() : perEndpoint.values(),
    ),
    lastDuration: gauge('repairmon_probe_last_duration_seconds', 'Duration of the last probe', 'lastDuration'),
    status: gauge('repairmon_probe_http_status_code', 'HTTP status of the last probe; 0 when no response', 'status'),
    reason: family(
      'repairmon_probe_failure_reason',
      'Why the last probe failed (one series per probe, value 1; reason="none" on success)',
      'gauge',
      reasonColumn,
    ),
    items: gauge('repairmon_probe_data_items', 'Number of items a list endpoint returned in the last probe', 'items'),
    lastRun: gauge('repairmon_probe_last_run_timestamp_seconds', 'When the probe last ran (Unix time)', 'lastRun'),
    lastSuccess: gauge(
      'repairmon_probe_last_success_timestamp_seconds',
      'When the probe last had its expected outcome (Unix time)',
      'lastSuccess',
    ),
    streak: family(
      'repairmon_probe_consecutive_failures',
      'Consecutive failures of one class ending with the last probe (class="none", 0 after a success); a 429 neither extends nor breaks another class',
      'gauge',
      streakColumn,
    ),
  };
  if (slot !== FAMILY_COUNT) throw new Error(`probe table: ${slot} families but ${FAMILY_COUNT} row slots`);
  return {
    families,
    /** Outcome counters per probe (true) or per target, endpoint and check; both keep counting. */
    setPerKeyOutcomes: (perKey: boolean): void => void (table.perKeyOutcomes = perKey),
    /** Keeps the rows of `plan` (new ones pre-initialised), in plan order, and drops every other row. */
    sync(plan: readonly ProbeSpec[]): void {
      const next = new Map<string, ProbeRow>();
      const nextEndpoints = new Map<string, ProbeRow>();
      for (const spec of plan) {
        const kept = rows.get(spec.id);
        const labels = probeLabels(spec);
        next.set(spec.id, kept && sameLabels(kept.labels, labels) ? kept : newRow(labels));
        const key = endpointKey(spec);
        if (!nextEndpoints.has(key)) nextEndpoints.set(key, perEndpoint.get(key) ?? newRow(endpointLabels(spec)));
      }
      rows = next;
      perEndpoint = nextEndpoints;
    },
    /**
     * Writes one result into the probe's row (a probe the plan lacks gets its rows, as prom-client
     * would create its series); returns the probe's streak after it.
     */
    record(spec: ProbeSpec, update: RowUpdate): Streak {
      let row = rows.get(spec.id);
      if (!row) rows.set(spec.id, (row = newRow(probeLabels(spec))));
      applyUpdate(row, update);
      if (!update.counted) return row.streak;
      const key = endpointKey(spec);
      let counters = perEndpoint.get(key);
      if (!counters) perEndpoint.set(key, (counters = newRow(endpointLabels(spec))));
      count(counters, update.outcome);
      // A per-endpoint row is only ever rendered by `total`: clearing every slot spares naming its index.
      counters.text.fill(undefined);
      return row.streak;
    },
    /** Ends every streak of `cls` on the target's rows (a maintenance window: what came before says nothing about after). */
    endStreaks(target: string, cls: FailureClass): void {
      for (const row of rows.values()) {
        if (row.labels['target'] !== target || row.streak.class !== cls) continue;
        row.streak = NO_STREAK;
        row.text.fill(undefined);
      }
    },
  };
}
