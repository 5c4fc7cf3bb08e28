/**
 * The first thing on the status page: refusal canaries that got data back. A tenant-isolation
 * or authorization breach is a security incident, so it is not left as one red cell among
 * "8 failing": each breached probe gets a row with the target, key alias, tenant, endpoint,
 * when it last happened, how often, and whether it still happens. Pure.
 */
import type { HistoryEntry } from '../history.js';
import { esc } from './html.js';
import type { UptimeSample } from './uptime.js';

type BreachRow = ReturnType<typeof breachRows>[number];

const KIND: Readonly<Record<string, string>> = {
  tenant_isolation_breach: 'tenant isolation',
  authorization_breach: 'authorization',
};

/** One row per breached probe, newest breach first; `ongoing`: its newest result is still a breach. */
export function breachRows(breaches: readonly HistoryEntry[], lastOf: (id: string) => HistoryEntry | undefined) {
  const rows = new Map<string, { latest: HistoryEntry; count: number }>();
  for (const entry of breaches) {
    const row = rows.get(entry.id);
    if (!row) rows.set(entry.id, { latest: entry, count: 1 });
    else {
      row.count += 1;
      if (entry.at > row.latest.at) row.latest = entry;
    }
  }
  return [...rows.entries()]
    .map(([id, row]) => ({ id, ...row, ongoing: lastOf(id)?.outcome === 'assertion_failed' }))
    .sort((a, b) => b.latest.at - a.latest.at);
}

function row(r: BreachRow): string {
  const e = r.latest;
  const state = r.ongoing ? '<span class="badge breach">ongoing</span>' : '<span class="badge warn">passed since</span>';
  return `<tr><td>${state}</td><td>${esc(KIND[e.reason] ?? e.reason)}</td><td>${esc(e.target)}</td><td>${esc(e.keyAlias)}</td><td>${esc(e.tenant || '–')}</td><td>${esc(e.endpoint)} <span class="muted">(${esc(e.check)})</span></td><td><time datetime="${new Date(e.at).toISOString()}">${new Date(e.at).toISOString()}</time></td><td>${r.count}</td><td>${esc(e.detail)}</td></tr>`;
}

/** Breaches Prometheus counted in the last 24 h: also those from before the monitor restarted. */
function recordedTable(recorded: readonly UptimeSample[]): string {
  if (recorded.length === 0) return '';
  const rows = recorded
    .map((r) => {
      const l = r.labels;
      return `<tr><td>${esc(l['target'])}</td><td>${esc(l['key_alias'])}</td><td>${esc(l['tenant'] || '–')}</td><td>${esc(l['endpoint'])} <span class="muted">(${esc(l['check'])})</span></td><td>${Math.max(1, Math.round(r.value))}</td></tr>`;
    })
    .join('');
  return `<h3>Counted by Prometheus in the last 24 h (also before a restart)</h3><table aria-label="breaches in the last 24 hours"><thead><tr><th scope="col">target</th><th scope="col">key alias</th><th scope="col">tenant</th><th scope="col">endpoint</th><th scope="col">about</th></tr></thead><tbody>${rows}</tbody></table>`;
}

export function renderBreachBanner(rows: readonly BreachRow[], recorded: readonly UptimeSample[] = []): string {
  if (rows.length === 0 && recorded.length === 0) return '';
  if (rows.length === 0) {
    return `<section id="breaches" class="breach-banner" role="alert" aria-labelledby="breaches-title"><h2 id="breaches-title">${esc(`Security: ${recorded.length} probe${recorded.length === 1 ? '' : 's'} got data where the API must refuse in the last 24 h`)}</h2>
<p>None since this monitor started; treat them as a security incident all the same (docs/alerts.md, runbook RepairmonTenantIsolationBreach).</p>${recordedTable(recorded)}</section>`;
  }
  const ongoing = rows.filter((r) => r.ongoing).length;
  const title = `Security: ${rows.length} probe${rows.length === 1 ? '' : 's'} got data where the API must refuse${ongoing > 0 ? ` (${ongoing} ongoing)` : ''}`;
  return `<section id="breaches" class="breach-banner" role="alert" aria-labelledby="breaches-title"><h2 id="breaches-title">${esc(title)}</h2>
<p>A refusal canary was served data: treat it as a security incident and page the API security on-call (docs/alerts.md, runbook RepairmonTenantIsolationBreach).</p>
<table aria-label="breaches"><thead><tr><th scope="col">state</th><th scope="col">breach</th><th scope="col">target</th><th scope="col">key alias</th><th scope="col">tenant</th><th scope="col">endpoint</th><th scope="col">last seen (UTC)</th><th scope="col">times</th><th scope="col">what happened</th></tr></thead><tbody>${rows.map(row).join('')}</tbody></table>${recordedTable(recorded)}</section>`;
}
