/**
 * The status page: per target, a tenant x endpoint grid of read probes (last outcome, success
 * ratio over the kept window, latency sparkline) and a table of the canaries. Server-rendered,
 * no scripts, no external assets; it refreshes itself.
 */
import { ENDPOINT_IDS } from '../../api/contract/index.js';
import type { MaintenanceWindow, MonitorTarget } from '../config/types.js';
import type { HistoryEntry } from '../history.js';
import type { ProbeSpec } from '../probe/spec.js';
import { esc, layout, outcomeClass } from './html.js';
import { sparkline } from './sparkline.js';

export interface StatusView {
  readonly targets: readonly MonitorTarget[];
  readonly plan: readonly ProbeSpec[];
  readonly window: (id: string) => readonly HistoryEntry[];
  readonly maintenance: (target: MonitorTarget) => MaintenanceWindow | undefined;
  readonly shard: string;
  readonly now: number;
}

function ratio(entries: readonly HistoryEntry[]): string {
  if (entries.length === 0) return '–';
  const ok = entries.filter((e) => e.success).length;
  return `${Math.round((ok / entries.length) * 1000) / 10}%`;
}

function cell(spec: ProbeSpec | undefined, view: StatusView): string {
  if (!spec) return '<td class="cell none"><span class="muted">·</span></td>';
  const entries = view.window(spec.id);
  const last = entries[entries.length - 1];
  const cls = outcomeClass(last?.outcome, last?.success);
  const title = last ? `${last.outcome}: ${last.detail}` : 'not run yet';
  const ms = last?.sent ? `${Math.round(last.durationMs)} ms` : '';
  return `<td class="cell ${cls}" title="${esc(title)}" data-probe="${esc(spec.id)}"><span class="badge">${esc(last?.outcome ?? 'pending')}</span> <span class="muted">${ratio(entries)} ${ms}</span><br>${sparkline(entries)}</td>`;
}

function readGrid(target: MonitorTarget, probes: readonly ProbeSpec[], view: StatusView): string {
  const reads = probes.filter((p) => p.check === 'read');
  const columns = ENDPOINT_IDS.filter((id) => reads.some((p) => p.endpoint === id));
  const rows = [...new Set(reads.map((p) => `${p.tenant}\u0000${p.keyAlias}`))];
  const body = rows
    .map((row) => {
      const [tenant = '', alias = ''] = row.split('\u0000');
      const cells = columns.map((c) => cell(reads.find((p) => p.tenant === tenant && p.keyAlias === alias && p.endpoint === c), view)).join('');
      return `<tr><th>${esc(tenant || '(target-wide)')}</th><td class="muted">${esc(alias)}</td>${cells}</tr>`;
    })
    .join('');
  const head = columns.map((c) => `<th>${esc(c)}</th>`).join('');
  return `<table class="grid" aria-label="reads of ${esc(target.name)}"><thead><tr><th>tenant</th><th>key</th>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function canaryTable(probes: readonly ProbeSpec[], view: StatusView): string {
  const canaries = probes.filter((p) => p.check !== 'read');
  if (canaries.length === 0) return '<p class="muted">canaries off</p>';
  const rows = canaries
    .map((p) => {
      const entries = view.window(p.id);
      const last = entries[entries.length - 1];
      return `<tr><td>${esc(p.check)}</td><td>${esc(p.keyAlias)}</td><td>${esc(p.endpoint)}${p.tenant ? ` (${esc(p.tenant)})` : ''}</td><td>${esc(last?.expected ?? '')}</td>${cell(p, view)}<td class="muted">${esc(last && !last.success ? last.detail : '')}</td></tr>`;
    })
    .join('');
  return `<table aria-label="canaries"><thead><tr><th>canary</th><th>key</th><th>endpoint</th><th>expects</th><th>last</th><th>why</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function targetSection(target: MonitorTarget, view: StatusView): string {
  const probes = view.plan.filter((p) => p.target === target.name);
  const lasts = probes.map((p) => view.window(p.id).at(-1)).filter((e): e is HistoryEntry => e !== undefined);
  const failing = lasts.filter((e) => !e.success).length;
  const window = view.maintenance(target);
  const state = window
    ? `<span class="badge warn">maintenance${window.reason ? `: ${esc(window.reason)}` : ''}</span>`
    : `<span class="badge ${failing > 0 ? 'fail' : lasts.length > 0 ? 'pass' : 'none'}">${failing > 0 ? `${failing} failing` : lasts.length > 0 ? 'all passing' : 'pending'}</span>`;
  return `<section id="target-${esc(target.name)}"><h2>${esc(target.name)} ${state}</h2>
<p class="muted">${probes.length} probes · schedule <code>${esc(target.schedule)}</code> · timeout ${target.timeoutMs} ms</p>
${readGrid(target, probes, view)}<h2>Authorization canaries</h2>${canaryTable(probes, view)}</section>`;
}

export function renderStatusPage(view: StatusView): string {
  const lasts = view.plan.map((p) => view.window(p.id).at(-1)).filter((e): e is HistoryEntry => e !== undefined);
  const failing = lasts.filter((e) => !e.success).length;
  const summary = `<section class="summary"><span><b>${view.plan.length}</b> probes</span><span><b>${lasts.length - failing}</b> passing</span><span><b>${failing}</b> failing</span><span class="muted">shard ${esc(view.shard)} · rendered ${new Date(view.now).toISOString()}</span></section>`;
  return layout('repairmon status', summary + view.targets.map((t) => targetSection(t, view)).join(''), { refreshSeconds: 10 });
}
