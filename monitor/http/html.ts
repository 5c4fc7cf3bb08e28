/** HTML helpers for the server-rendered pages (escaping, one shared layout, no external assets) and `/probes`. */
import type { HistoryEntry } from '../history.js';

export function esc(value: string | number | boolean | null | undefined): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Outcome -> colour class; the palette reads on screen and in greyscale print. */
export function outcomeClass(outcome: string | undefined, success: boolean | undefined): string {
  if (outcome === undefined) return 'none';
  if (success) return 'pass';
  if (outcome === 'rate_limited') return 'warn';
  if (outcome === 'assertion_failed') return 'breach';
  return 'fail';
}

const STYLE = `
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:#f6f7f9;color:#1d232b}
header{background:#1d232b;color:#fff;padding:10px 20px;display:flex;gap:24px;align-items:baseline;flex-wrap:wrap}
header h1{font-size:18px;margin:0}header a{color:#9cc3ff}
main{padding:12px 20px}
section{background:#fff;border:1px solid #dde1e6;border-radius:6px;margin:0 0 16px;padding:10px 14px}
h2{font-size:16px;margin:4px 0 8px}
h3{font-size:14px;margin:10px 0 6px}
.breach-banner{border:2px solid #8a1208;background:#fff4f3}
.breach-banner h2{color:#8a1208}
.reason{font-size:12px;font-weight:600;color:#8a1208}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid #eceef1;padding:3px 5px;text-align:left;vertical-align:middle}
th{font-size:12px;color:#5b6570;font-weight:600}
td.cell,td.up{font-size:12px;overflow-wrap:anywhere}
td.up{white-space:nowrap}
.badge{display:inline-block;border-radius:3px;padding:1px 5px;font-size:12px;font-weight:600}
td.cell .badge{overflow-wrap:anywhere}
.down{color:#8a1208}
.bar{margin:4px 0}
.pass .badge,.badge.pass{background:#d7f5dd;color:#0f5b22}
.fail .badge,.badge.fail{background:#ffd9d6;color:#8a1208}
.warn .badge,.badge.warn{background:#fff0c2;color:#6b4d00}
.breach .badge,.badge.breach{background:#8a1208;color:#fff}
.none .badge,.badge.none{background:#eceef1;color:#5b6570}
.muted{color:#5b6570;font-size:12px}
.summary span{margin-right:18px}
svg.spark,svg.history{vertical-align:middle}
code{font-size:12px}
`;

/** The shared layout around a page's body, split so a long page can be sent in pieces. */
export function layoutParts(title: string, options: { refreshSeconds?: number | undefined } = {}): { head: string; tail: string } {
  const refresh = options.refreshSeconds ? `<meta http-equiv="refresh" content="${options.refreshSeconds}">` : '';
  const head = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${refresh}
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body><header><h1>${esc(title)}</h1><nav><a href="/">status</a> · <a href="/probes">recent probes</a> · <a href="/probes.json">json</a> · <a href="/metrics">metrics</a></nav></header>
<main>`;
  return { head, tail: '</main></body></html>\n' };
}

/** `/probes`: recent results and the failures kept after they rolled off; `/probes.json` twin. */
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
  const { head, tail } = layoutParts('repairmon recent probes');
  return head + table('Recent failures (kept after they roll off)', view.failures) + table('Recent probes', view.recent) + tail;
}

export const probesJson = (view: ProbesView): string => JSON.stringify(view, null, 2);
