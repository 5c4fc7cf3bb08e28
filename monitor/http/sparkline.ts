/** Inline SVG charts of kept results: a latency sparkline per probe and a history bar per target. Pure. */
import type { HistoryEntry } from '../history.js';

export function sparkline(entries: readonly HistoryEntry[], width = 64, height = 18): string {
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

/** Worst first: what a slot of the history bar shows when its probes disagree. */
const SLOT_CLASSES = ['breach', 'fail', 'warn', 'pass'] as const;
const SLOT_COLOURS: Readonly<Record<(typeof SLOT_CLASSES)[number] | 'none', string>> = {
  breach: '#8a1208',
  fail: '#c62828',
  warn: '#d4a000',
  pass: '#3a9d4f',
  none: '#d0d4da',
};

function slotClass(e: HistoryEntry): (typeof SLOT_CLASSES)[number] {
  if (e.success) return 'pass';
  if (e.outcome === 'assertion_failed') return 'breach';
  return e.outcome === 'rate_limited' ? 'warn' : 'fail';
}

/**
 * A target's history bar (as Gatus and Uptime Kuma show one per service): the kept results of
 * all its probes in `slots` equal slices of time up to `now`, each coloured by its worst result.
 * Pure.
 */
export function historyBar(entries: readonly HistoryEntry[], now: number, slots = 40): string {
  let from = now;
  for (const e of entries) if (e.at < from) from = e.at;
  const width = Math.max(1, (now - from) / slots);
  const worst: Array<(typeof SLOT_CLASSES)[number] | 'none'> = Array.from({ length: slots }, () => 'none');
  const failing = new Array<number>(slots).fill(0);
  const counts = new Array<number>(slots).fill(0);
  for (const e of entries) {
    const i = Math.min(slots - 1, Math.floor((e.at - from) / width));
    const cls = slotClass(e);
    counts[i] = (counts[i] ?? 0) + 1;
    if (cls !== 'pass') failing[i] = (failing[i] ?? 0) + 1;
    const current = worst[i] ?? 'none';
    if (current === 'none' || SLOT_CLASSES.indexOf(cls) < SLOT_CLASSES.indexOf(current)) worst[i] = cls;
  }
  const rects = worst
    .map((cls, i) => {
      const start = new Date(from + i * width).toISOString().slice(11, 19);
      const title = cls === 'none' ? `${start}: no result` : `${start}: ${failing[i]} of ${counts[i]} results failed`;
      return `<rect x="${i * 7}" y="0" width="5" height="16" rx="1" fill="${SLOT_COLOURS[cls]}"><title>${title}</title></rect>`;
    })
    .join('');
  const bad = worst.filter((c) => c !== 'none' && c !== 'pass').length;
  const minutes = Math.max(1, Math.round((now - from) / 60_000));
  const label = `history of the last ${minutes} min in ${slots} slots: ${bad} with failures`;
  return `<svg class="history" width="${slots * 7}" height="16" viewBox="0 0 ${slots * 7} 16" role="img" aria-label="${label}"><title>${label}</title>${rects}</svg>`;
}
