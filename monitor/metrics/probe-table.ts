/**
 * Per-probe series as one row per probe, rendered by plain string building.
 *
 * Why: at 1 000 tenant keys (~7 000 probes) the per-probe families hold tens of thousands of
 * series. As prom-client Gauges/Counters every scrape re-formatted and re-escaped every label
 * set, and `/metrics` over HTTP took 510-620 ms p50 (p95 650-770 ms) on this 2-core machine;
 * issue 9 wants < 250 ms. Here the five probe labels are escaped once per plan sync into a
 * prefix, each row caches its lines per family until its next record, and a scrape is one
 * join (see `bench/monitor-scale.ts`), with ~35% less heap (no labels object per series).
 * Names, label sets and values stay exactly what prom-client writes, as the ops rules in
 * deploy/prometheus/ depend on them (checked against prom-client in tests).
 */
import { OUTCOMES, type Outcome } from '../probe/expectation.js';
import { type FailureClass, NO_STREAK, type Streak, nextStreak } from '../probe/failure-class.js';
import type { ProbeSpec } from '../probe/spec.js';
import { escapeLabelValue, familyHeader, formatLabelPairs, formatValue } from './exposition.js';

/** Only names chosen by us or the config go in a label: never a key, a URL or an error message. */
export const PROBE_LABELS = ['target', 'endpoint', 'tenant', 'key_alias', 'check'] as const;
export type ProbeLabels = Record<(typeof PROBE_LABELS)[number], string>;

export function probeLabels(spec: ProbeSpec): ProbeLabels {
  return { target: spec.target, endpoint: spec.endpointLabel, tenant: spec.tenant, key_alias: spec.keyAlias, check: spec.check };
}

const GAUGE_FIELDS = ['success', 'lastDuration', 'status', 'items', 'lastRun', 'lastSuccess'] as const;
type GaugeField = (typeof GAUGE_FIELDS)[number];

export interface ProbeRow {
  /** The probe's labels (the per-endpoint outcome counters' rows hold fewer). */
  readonly labels: Readonly<Record<string, string>>;
  /** `target="..",endpoint="..",tenant="..",key_alias="..",check=".."`, escaped. */
  readonly prefix: string;
  /** Undefined until first set: a never-set gauge has no series, as with prom-client. */
  readonly gauges: { [F in GaugeField]?: number };
  /** Count per outcome, indexed like OUTCOMES; all 0 from the start. */
  readonly outcomes: Float64Array;
  /** The last failure reason (raw and escaped); undefined until the first record. */
  reason: { readonly value: string; readonly escaped: string } | undefined;
  /** The current run of failures of one class; `none` from the plan sync on, undefined after a registry reset. */
  streak: Streak | undefined;
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
}

/** One series as prom-client's `get()` returns it. */
interface SeriesValue {
  value: number;
  labels: Record<string, string>;
}

interface FamilyObject {
  name: string;
  help: string;
  type: 'gauge' | 'counter';
  values: SeriesValue[];
  aggregator: 'sum';
}

/** How one family reads a row. */
interface Column {
  /** The row's exposition lines, each led by '\n'; '' when the row has no series here. Flat (see `flat`). */
  lines(row: ProbeRow, name: string): string;
  values(row: ProbeRow): SeriesValue[];
  reset(row: ProbeRow): void;
}

/**
 * A metric family over the table's rows, registered in a prom-client Registry. `render()` is
 * the fast path MonitorRegistry takes; `get()` keeps `getMetricsAsJSON` (and any plain
 * Registry) working.
 */
export class TableFamily {
  readonly aggregator = 'sum' as const;
  /** Writable: prom-client's registry renames counters in OpenMetrics mode. */
  name: string;

  constructor(
    name: string,
    readonly help: string,
    readonly type: 'gauge' | 'counter',
    private readonly rows: () => Iterable<ProbeRow>,
    private readonly column: Column,
    /** Where this family caches its lines in each row's `text`. */
    private readonly slot: number,
  ) {
    this.name = name;
  }

  /**
   * Rows unchanged since the last scrape reuse their cached lines, so a scrape allocates
   * little beyond the result; one join builds a flat string (`+=` would build a rope that
   * prom-client's final join then has to flatten).
   */
  render(): string {
    const parts: string[] = [];
    this.renderInto(parts);
    return parts.join('');
  }

  /** Appends the family's text in pieces, for a caller that joins many families at once. */
  renderInto(parts: string[]): void {
    parts.push(familyHeader(this.name, this.help, this.type));
    for (const row of this.rows()) {
      let lines = row.text[this.slot];
      if (lines === undefined) row.text[this.slot] = lines = this.column.lines(row, this.name);
      parts.push(lines);
    }
  }

  async get(): Promise<FamilyObject> {
    const values: SeriesValue[] = [];
    for (const row of this.rows()) values.push(...this.column.values(row));
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    for (const row of this.rows()) {
      this.column.reset(row);
      row.text[this.slot] = undefined;
    }
  }
}

/** A family that writes its own exposition text: the table's, and the outcome counters. */
type SelfRenderingFamily = Pick<TableFamily, 'name' | 'render' | 'renderInto' | 'get' | 'reset'>;

/** True for a family that renders itself; checked by shape so a second copy of this module also counts. */
export function isTableFamily(metric: unknown): metric is SelfRenderingFamily {
  if (typeof metric !== 'object' || metric === null) return false;
  const m = metric as { render?: unknown; renderInto?: unknown; name?: unknown };
  return typeof m.render === 'function' && typeof m.renderInto === 'function' && typeof m.name === 'string';
}

/**
 * Joins into a flat string. Lines are cached per row and joined again on every scrape; a
 * template literal or `+=` would cache a rope, and re-walking ropes made the join ~3x slower.
 */
const flat = (parts: readonly string[]): string => parts.join('');

function gaugeColumn(field: GaugeField): Column {
  return {
    lines(row, name) {
      const v = row.gauges[field];
      return v === undefined ? '' : flat(['\n', name, '{', row.prefix, '} ', formatValue(v)]);
    },
    values: (row) => {
      const v = row.gauges[field];
      return v === undefined ? [] : [{ value: v, labels: { ...row.labels } }];
    },
    reset: (row) => void delete row.gauges[field],
  };
}

const OUTCOME_SUFFIXES = OUTCOMES.map((o) => `,outcome="${escapeLabelValue(o)}"} `);

export const outcomeColumn: Column = {
  lines(row, name) {
    const parts: string[] = [];
    for (let i = 0; i < OUTCOME_SUFFIXES.length; i += 1)
      parts.push('\n', name, '{', row.prefix, OUTCOME_SUFFIXES[i] ?? '', formatValue(row.outcomes[i] ?? 0));
    return flat(parts);
  },
  values: (row) => OUTCOMES.map((outcome, i) => ({ value: row.outcomes[i] ?? 0, labels: { ...row.labels, outcome } })),
  reset: (row) => row.outcomes.fill(0),
};

const reasonColumn: Column = {
  lines: (row, name) => (row.reason === undefined ? '' : flat(['\n', name, '{', row.prefix, ',reason="', row.reason.escaped, '"} 1'])),
  values: (row) => (row.reason === undefined ? [] : [{ value: 1, labels: { ...row.labels, reason: row.reason.value } }]),
  reset: (row) => void (row.reason = undefined),
};

/** The streak's class as a label; its length as the value. */
const streakColumn: Column = {
  lines: (row, name) =>
    row.streak === undefined ? '' : flat(['\n', name, '{', row.prefix, ',class="', row.streak.class, '"} ', formatValue(row.streak.count)]),
  values: (row) => (row.streak === undefined ? [] : [{ value: row.streak.count, labels: { ...row.labels, class: row.streak.class } }]),
  reset: (row) => void (row.streak = undefined),
};

const OUTCOME_INDEX = new Map<Outcome, number>(OUTCOMES.map((o, i) => [o, i]));

const FAMILY_COUNT = 9;

function newRow(spec: ProbeSpec): ProbeRow {
  const labels = probeLabels(spec);
  // The streak starts at "no failure" when the probe is planned, so a probe added by a reload
  // shows on /metrics at once, before its first run.
  return {
    labels,
    prefix: formatLabelPairs(labels),
    gauges: {},
    outcomes: new Float64Array(OUTCOMES.length),
    reason: undefined,
    streak: NO_STREAK,
    text: new Array<string | undefined>(FAMILY_COUNT),
  };
}

function applyUpdate(row: ProbeRow, update: RowUpdate): void {
  for (const field of GAUGE_FIELDS) {
    const value = update.gauges[field];
    if (value !== undefined) row.gauges[field] = value;
  }
  const i = OUTCOME_INDEX.get(update.outcome);
  if (i !== undefined) row.outcomes[i] = (row.outcomes[i] ?? 0) + 1;
  if (row.reason?.value !== update.reason) row.reason = { value: update.reason, escaped: escapeLabelValue(update.reason) };
  row.streak = nextStreak(row.streak ?? NO_STREAK, update.failure);
  row.text.fill(undefined);
}

const sameLabels = (a: Readonly<Record<string, string>>, b: ProbeLabels): boolean => PROBE_LABELS.every((k) => a[k] === b[k]);

function defineFamilies(all: () => Iterable<ProbeRow>) {
  let slot = 0;
  const family = (name: string, help: string, type: 'gauge' | 'counter', column: Column): TableFamily =>
    new TableFamily(name, help, type, all, column, slot++);
  const gauge = (name: string, help: string, field: GaugeField): TableFamily => family(name, help, 'gauge', gaugeColumn(field));
  const families = {
    success: gauge('repairmon_probe_success', '1 when the last outcome was the expected one, else 0', 'success'),
    total: family('repairmon_probes_total', 'Probes run, by outcome (every outcome pre-initialised to 0)', 'counter', outcomeColumn),
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
  return families;
}

export type ProbeTable = ReturnType<typeof createProbeTable>;

export function createProbeTable() {
  let rows = new Map<string, ProbeRow>();
  return {
    /** Keeps the rows of `plan` (new ones pre-initialised), in plan order, and drops every other row. */
    sync(plan: readonly ProbeSpec[]): void {
      const next = new Map<string, ProbeRow>();
      for (const spec of plan) {
        const kept = rows.get(spec.id);
        next.set(spec.id, kept && sameLabels(kept.labels, probeLabels(spec)) ? kept : newRow(spec));
      }
      rows = next;
    },
    /** Writes one result into the probe's row; a probe the plan lacks gets a row, as prom-client would create its series. */
    record(spec: ProbeSpec, update: RowUpdate): void {
      let row = rows.get(spec.id);
      if (!row) rows.set(spec.id, (row = newRow(spec)));
      applyUpdate(row, update);
    },
    /** Ends every streak of `cls` on the target's rows (a maintenance window: what came before says nothing about after). */
    endStreaks(target: string, cls: FailureClass): void {
      for (const row of rows.values()) {
        if (row.labels.target !== target || row.streak?.class !== cls) continue;
        row.streak = NO_STREAK;
        row.text.fill(undefined);
      }
    },
    families: defineFamilies(() => rows.values()),
  };
}
