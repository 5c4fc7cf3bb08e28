/** An inline SVG latency sparkline: one point per kept result, failures as red dots. Pure. */
import type { HistoryEntry } from '../history.js';

export function sparkline(entries: readonly HistoryEntry[], width = 90, height = 20): string {
  const sent = entries.filter((e) => e.sent);
  if (sent.length === 0) return `<svg class="spark" width="${width}" height="${height}" role="img" aria-label="no data"></svg>`;
  const max = Math.max(...sent.map((e) => e.durationMs), 1);
  const step = sent.length > 1 ? (width - 4) / (sent.length - 1) : 0;
  const points = sent.map((e, i) => ({ x: 2 + i * step, y: height - 2 - (e.durationMs / max) * (height - 4), ok: e.success }));
  const line = points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
  const dots = points
    .filter((p) => !p.ok)
    .map((p) => `<circle cx="${p.x.toFixed(1)}" cy="${p.y.toFixed(1)}" r="2" fill="#c62828"/>`)
    .join('');
  const label = `latency, max ${Math.round(max)} ms over ${sent.length} probes`;
  return `<svg class="spark" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}"><title>${label}</title><polyline fill="none" stroke="#3b6fd8" stroke-width="1.5" points="${line}"/>${dots}</svg>`;
}
