/**
 * The status page: breaches first, then per target a history bar, what is down now, the
 * canaries, and a tenant x endpoint grid of the keys' reads, each uptime figure with how much
 * data is behind it. Server-rendered, no scripts, no external assets, fits 1280 px. It refreshes
 * itself only when asked (`/?refresh=10`): an unasked reload moves the page under a
 * screen-reader user (WCAG 2.2.1).
 */
import { ENDPOINT_IDS, type EndpointId } from '../../api/contract/index.js';
import { failureClass } from '../probe/failure-class.js';
import type { MaintenanceWindow, MonitorTarget } from '../config/types.js';
import type { HistoryEntry } from '../history.js';
import { type ProbeSpec, isKeyRead } from '../probe/spec.js';
import { breachRows, renderBreachBanner } from './breach-banner.js';
import { esc, layoutParts, outcomeClass } from './html.js';
import { historyBar, sparkline } from './sparkline.js';
import { UPTIME_WINDOWS, type Uptime, coverageOf, uptimeOf } from './uptime.js';

interface StatusView {
  readonly targets: readonly MonitorTarget[];
  readonly plan: readonly ProbeSpec[];
  readonly window: (id: string) => readonly HistoryEntry[];
  readonly maintenance: (target: MonitorTarget) => MaintenanceWindow | undefined;
  readonly shard: string;
  readonly now: number;
  /** Newest first. */
  readonly breaches?: readonly HistoryEntry[];
  readonly uptime?: Uptime;
  readonly refreshSeconds?: number | undefined;
  /** `statusLayout(targets, plan)`, when the caller keeps it per plan; built here otherwise. */
  readonly layout?: StatusLayout;
}

/** One row of a target's read grid: a tenant and a key, its reads, and the read shown per column. */
interface GridRow {
  readonly tenant: string;
  readonly alias: string;
  readonly probes: ProbeSpec[];
  /** The first read of each endpoint (a platform key's several /platform/ paths share one column). */
  readonly cells: Map<EndpointId, ProbeSpec>;
}

interface TargetLayout {
  readonly target: MonitorTarget;
  readonly probes: ProbeSpec[];
  readonly reads: ProbeSpec[];
  readonly columns: EndpointId[];
  readonly rows: GridRow[];
  readonly canaries: ProbeSpec[];
}

export type StatusLayout = ReturnType<typeof statusLayout>;

/**
 * Where each probe goes on the page, from one pass over the plan. It depends on the plan only,
 * so the server keeps one per plan (a reload makes a new plan); grouping per request, row and
 * cell was a filter over every read for every row: 42 s for one page at 5 000 keys.
 */
export function statusLayout(targets: readonly MonitorTarget[], plan: readonly ProbeSpec[]): { readonly targets: readonly TargetLayout[] } {
  const byName = new Map<string, TargetLayout & { readonly rowsByKey: Map<string, GridRow> }>();
  for (const target of targets)
    byName.set(target.name, { target, probes: [], reads: [], columns: [], rows: [], canaries: [], rowsByKey: new Map() });
  for (const p of plan) {
    const t = byName.get(p.target);
    if (!t) continue;
    t.probes.push(p);
    if (!isKeyRead(p.check)) {
      t.canaries.push(p);
      continue;
    }
    t.reads.push(p);
    const rowKey = `${p.tenant}\u0000${p.keyAlias}`;
    let row = t.rowsByKey.get(rowKey);
    if (!row) {
      row = { tenant: p.tenant, alias: p.keyAlias, probes: [], cells: new Map() };
      t.rowsByKey.set(rowKey, row);
      t.rows.push(row);
    }
    row.probes.push(p);
    if (!row.cells.has(p.endpoint)) row.cells.set(p.endpoint, p);
  }
  return {
    targets: [...byName.values()].map(({ rowsByKey: _, ...t }) => {
      const seen = new Set(t.reads.map((p) => p.endpoint));
      return { ...t, columns: ENDPOINT_IDS.filter((id) => seen.has(id)) };
    }),
  };
}

const WINDOW_LABEL: Readonly<Record<(typeof UPTIME_WINDOWS)[number], string>> = { '24h': '24 h', '7d': '7 d', '30d': '30 d' };

/** Rounded down: 99.96 % is not 100 % (an outage of minutes in a day must show). */
function percent(value: number | undefined): string {
  return value === undefined ? '–' : `${Math.floor(value * 1000) / 10}%`;
}

function keptRatio(entries: readonly HistoryEntry[]): number | undefined {
  return entries.length === 0 ? undefined : entries.filter((e) => e.success).length / entries.length;
}

/** A span of data in the largest unit that keeps it readable: 40 s, 19 min, 5 h, 12 d. */
function span(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 5_400) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 3_600)} h`;
  return `${Math.round(seconds / 86_400)} d`;
}

/** A figure with the data behind it: `99.5% of 19 min`. */
function figure(ratio: number | undefined, seconds: number | undefined): string {
  return seconds === undefined ? percent(ratio) : `${percent(ratio)} <span class="muted">of ${span(seconds)}</span>`;
}

/** The kept results' ratio with how long they reach back: `100% of the last 29 s`. */
function kept(entries: readonly HistoryEntry[], now: number): string {
  let oldest = now;
  for (const e of entries) if (e.at < oldest) oldest = e.at;
  const ratio = percent(keptRatio(entries));
  return entries.length === 0 ? ratio : `${ratio} <span class="muted">of the last ${span((now - oldest) / 1000)}</span>`;
}

/**
 * What a canary's latest result says: data where a refusal was due is a breach; a failure of the
 * API itself (5xx, timeout, a 429) judged nothing about authorization, so it is not counted as
 * a failing canary and is shown in the colour of a failing API, never the breach colour.
 */
type CanaryState = 'pass' | 'pending' | 'breach' | 'failing' | 'not_judged';

function canaryState(spec: ProbeSpec, last: HistoryEntry | undefined): CanaryState {
  if (!last) return 'pending';
  const cls = failureClass(last.outcome, last.success, spec.endpoint);
  if (cls === 'none') return 'pass';
  if (cls === 'breach') return 'breach';
  return cls === 'service' || cls === 'throttled' ? 'not_judged' : 'failing';
}

const NOT_JUDGED = 'not judged: API failing';

/** Endpoints whose latest read failed on the service's side: what is down now. */
function downNow(reads: readonly ProbeSpec[], view: StatusView): EndpointId[] {
  const down = new Set<EndpointId>();
  for (const p of reads) {
    const last = view.window(p.id).at(-1);
    if (last && failureClass(last.outcome, last.success, p.endpoint) === 'service') down.add(p.endpoint);
  }
  return ENDPOINT_IDS.filter((id) => down.has(id));
}

/** Why the last result failed, in the cell: the label-safe reason, and whether an HTML page came back. */
function failureReason(last: HistoryEntry | undefined): string {
  if (!last || last.success) return '';
  return [last.reason, last.html ? 'HTML page' : ''].filter(Boolean).join(' · ');
}

function cell(spec: ProbeSpec | undefined, view: StatusView): string {
  if (!spec) return '<td class="cell none"><span class="muted">·</span></td>';
  const entries = view.window(spec.id);
  const last = entries[entries.length - 1];
  const cls = outcomeClass(last?.outcome, last?.success);
  const title = last ? `${last.outcome}: ${last.detail}` : 'not run yet';
  const ms = last?.sent ? `${Math.round(last.durationMs)} ms` : '';
  const reason = failureReason(last);
  const why = reason ? `<br><span class="reason">${esc(reason)}</span>` : '';
  return `<td class="cell ${cls}" title="${esc(title)}" data-probe="${esc(spec.id)}"><span class="badge">${esc(last?.outcome ?? 'pending')}</span> <span class="muted">${percent(keptRatio(entries))} ${ms}</span>${why}<br>${sparkline(entries)}</td>`;
}

/** The long windows, each with the data behind it (`24 h 99.5% of 19 min`); '' without Prometheus. */
function longWindows(match: Readonly<Record<string, string>>, uptime: Uptime, now: number, separator: string): string {
  if (uptime.kind !== 'ok') return '';
  return UPTIME_WINDOWS.map(
    (w) => `${WINDOW_LABEL[w]} ${figure(uptimeOf(uptime.windows[w], match), coverageOf(uptime.since[w], match, now / 1000))}`,
  ).join(separator);
}

function* readGrid(t: TargetLayout, view: StatusView, uptime: Uptime): Generator<string> {
  const { target, columns } = t;
  const head = columns.map((c) => `<th scope="col">${esc(c)}</th>`).join('');
  yield `<table class="grid" aria-label="reads of ${esc(target.name)}"><thead><tr><th scope="col">tenant</th><th scope="col">key</th><th scope="col">reads answered</th>${head}</tr></thead><tbody>`;
  for (const { tenant, alias, probes, cells: byEndpoint } of t.rows) {
    const cells = columns.map((c) => cell(byEndpoint.get(c), view)).join('');
    const long =
      uptime.kind === 'ok'
        ? `<br>${longWindows({ target: target.name, tenant, key_alias: alias }, uptime, view.now, '<br>')}`
        : uptime.kind === 'unavailable'
          ? '<br><span class="muted">long windows unavailable</span>'
          : '';
    yield `<tr><th scope="row">${esc(tenant || '(target-wide)')}</th><td class="muted">${esc(alias)}</td><td class="up">${kept(
      probes.flatMap((p) => view.window(p.id)),
      view.now,
    )}${long}</td>${cells}</tr>`;
  }
  yield '</tbody></table>';
}

function* canaryTable(canaries: readonly ProbeSpec[], view: StatusView): Generator<string> {
  if (canaries.length === 0) {
    yield '<p class="muted">canaries off</p>';
    return;
  }
  yield '<table aria-label="canaries"><thead><tr><th scope="col">canary</th><th scope="col">key</th><th scope="col">endpoint</th><th scope="col">expects</th><th scope="col">last</th><th scope="col">why</th></tr></thead><tbody>';
  for (const p of canaries) {
    const entries = view.window(p.id);
    const last = entries[entries.length - 1];
    const why = last && !last.success ? last.detail : '';
    const judged = canaryState(p, last) === 'not_judged' ? `${NOT_JUDGED}: ${why}` : why;
    yield `<tr><th scope="row">${esc(p.check)}</th><td>${esc(p.keyAlias)}</td><td>${esc(p.endpoint)}${p.tenant ? ` (${esc(p.tenant)})` : ''}</td><td>${esc(last?.expected ?? '')}</td>${cell(p, view)}<td class="muted">${esc(judged)}</td></tr>`;
  }
  yield '</tbody></table>';
}

function uptimeLine(target: MonitorTarget, reads: readonly ProbeSpec[], view: StatusView, uptime: Uptime): string {
  const down = downNow(reads, view);
  const now = down.length === 0 ? 'now: every endpoint answers' : `<b class="down">now: down ${down.map(esc).join(', ')}</b>`;
  const answered = kept(
    reads.flatMap((p) => view.window(p.id)),
    view.now,
  );
  if (uptime.kind === 'off')
    return `<p>Reads answered: ${answered} · ${now} · <span class="muted">24 h / 7 d / 30 d need <code>statusPage.prometheusUrl</code></span></p>`;
  if (uptime.kind === 'unavailable')
    return `<p>Reads answered: ${answered} · ${now} · <span class="muted">24 h / 7 d / 30 d unavailable: ${esc(uptime.reason)}</span></p>`;
  return `<p>Reads answered: ${answered} · ${longWindows({ target: target.name }, uptime, view.now, ' · ')} · ${now}</p>`;
}

/** How each state reads in the canaries' line, and its colour (a failing API's `fail`, never `breach`). */
const CANARY_BADGES: ReadonlyArray<readonly [CanaryState, string, (n: number) => string]> = [
  ['breach', 'breach', (n) => `${n} got data (breach)`],
  ['failing', 'fail', (n) => `${n} failing`],
  ['not_judged', 'fail', (n) => `${n} ${NOT_JUDGED}`],
];

/** The canaries in one line near the top of the target, so a failing one is seen without scrolling. */
function canaryLine(t: TargetLayout, view: StatusView): string {
  if (t.canaries.length === 0) return '';
  const states = t.canaries.map((p) => ({ check: p.check, state: canaryState(p, view.window(p.id).at(-1)) }));
  const parts = CANARY_BADGES.flatMap(([state, cls, label]) => {
    const checks = states.filter((c) => c.state === state).map((c) => c.check);
    if (checks.length === 0) return [];
    const names = state === 'not_judged' ? '' : ` ${esc([...new Set(checks)].join(', '))}`;
    return [`<span class="badge ${cls}">${label(checks.length)}</span>${names}`];
  });
  const state = parts.length === 0 ? `<span class="badge pass">${t.canaries.length} pass</span>` : parts.join(' · ');
  return `<p>Canaries: ${state} · <a href="#canaries-${esc(t.target.name)}">details</a></p>`;
}

function* targetSection(t: TargetLayout, view: StatusView, uptime: Uptime): Generator<string> {
  const { target, probes, reads } = t;
  const lasts = probes.map((p) => view.window(p.id).at(-1)).filter((e): e is HistoryEntry => e !== undefined);
  const failing = lasts.filter((e) => !e.success).length;
  const window = view.maintenance(target);
  const state = window
    ? `<span class="badge warn">maintenance${window.reason ? `: ${esc(window.reason)}` : ''}</span>`
    : `<span class="badge ${failing > 0 ? 'fail' : lasts.length > 0 ? 'pass' : 'none'}">${failing > 0 ? `${failing} failing` : lasts.length > 0 ? 'all passing' : 'pending'}</span>`;
  const history = historyBar(
    probes.flatMap((p) => view.window(p.id)),
    view.now,
  );
  yield `<section id="target-${esc(target.name)}" aria-labelledby="title-${esc(target.name)}"><h2 id="title-${esc(target.name)}">${esc(target.name)} ${state}</h2>
<p class="muted">${probes.length} probes · schedule <code>${esc(target.schedule)}</code> · timeout ${target.timeoutMs} ms</p>
<p class="bar">${history}</p>
${uptimeLine(target, reads, view, uptime)}${canaryLine(t, view)}`;
  yield* readGrid(t, view, uptime);
  yield `<h3 id="canaries-${esc(target.name)}">Authorization canaries</h3>`;
  yield* canaryTable(t.canaries, view);
  yield '</section>';
}

/**
 * The page in pieces, a row or less each: the server sends them as they come and lets other
 * requests (a kubelet's /-/healthy) in between, so a page of 35 000 cells never holds the
 * process for its whole length. Pure: the pieces joined are the page.
 */
export function* statusPageParts(view: StatusView): Generator<string> {
  const uptime = view.uptime ?? { kind: 'off' };
  const layout = view.layout ?? statusLayout(view.targets, view.plan);
  const lasts = view.plan.map((p) => view.window(p.id).at(-1)).filter((e): e is HistoryEntry => e !== undefined);
  const failing = lasts.filter((e) => !e.success).length;
  const outages = layout.targets.filter((t) => downNow(t.reads, view).length > 0).length;
  const banner = renderBreachBanner(
    breachRows(view.breaches ?? [], (id) => view.window(id).at(-1)),
    uptime.kind === 'ok' ? uptime.breaches : [],
  );
  const refresh = view.refreshSeconds
    ? `reloads every ${view.refreshSeconds} s · <a href="/">stop reloading</a>`
    : '<a href="/?refresh=10">reload every 10 s</a>';
  const summary = `<section class="summary" aria-label="summary"><span><b>${view.plan.length}</b> probes</span><span><b>${lasts.length - failing}</b> passing</span><span><b>${failing}</b> failing</span><span${outages > 0 ? ' class="down"' : ''}><b>${outages}</b> target${outages === 1 ? '' : 's'} with an outage now</span><span class="muted">shard ${esc(view.shard)} · rendered ${new Date(view.now).toISOString()} · ${refresh}</span></section>`;
  const { head, tail } = layoutParts('repairmon status', { refreshSeconds: view.refreshSeconds });
  yield head + banner + summary;
  for (const t of layout.targets) yield* targetSection(t, view, uptime);
  yield tail;
}
