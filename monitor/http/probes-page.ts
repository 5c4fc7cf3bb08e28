/** `/probes`: recent results and the failures kept after they rolled off; `/probes.json` twin. */
import type { HistoryEntry } from '../history.js';
import { esc, layout, outcomeClass } from './html.js';

export interface ProbesView {
  readonly recent: readonly HistoryEntry[];
  readonly failures: readonly HistoryEntry[];
}

/** The trace id and the server's request id on one line: what support searches the API's logs by. */
function ids(e: HistoryEntry): string {
  if (e.traceId === undefined) return '';
  return `trace ${e.traceId}${e.requestId === undefined ? '' : ` request ${e.requestId}`}`;
}

function rows(entries: readonly HistoryEntry[]): string {
  return entries
    .map(
      (e) =>
        `<tr class="${outcomeClass(e.outcome, e.success)}"><td>${new Date(e.at).toISOString()}</td><td>${esc(e.target)}</td><td>${esc(e.keyAlias)}</td><td>${esc(e.tenant)}</td><td>${esc(e.endpoint)}</td><td>${esc(e.check)}</td><td><span class="badge">${esc(e.outcome)}</span></td><td>${e.status ?? ''}</td><td>${e.sent ? Math.round(e.durationMs) : ''}</td><td class="muted">${esc(e.success ? '' : e.detail)}</td><td class="muted">${esc(ids(e))}</td></tr>`,
    )
    .join('');
}

function table(label: string, entries: readonly HistoryEntry[]): string {
  return `<section><h2>${esc(label)} (${entries.length})</h2><table><thead><tr><th>at</th><th>target</th><th>key</th><th>tenant</th><th>endpoint</th><th>check</th><th>outcome</th><th>status</th><th>ms</th><th>why</th><th>trace / request id</th></tr></thead><tbody>${rows(entries)}</tbody></table></section>`;
}

export function renderProbesPage(view: ProbesView): string {
  return layout(
    'repairmon recent probes',
    table('Recent failures (kept after they roll off)', view.failures) + table('Recent probes', view.recent),
  );
}

export function probesJson(view: ProbesView): string {
  return JSON.stringify({ recent: view.recent, failures: view.failures }, null, 2);
}
