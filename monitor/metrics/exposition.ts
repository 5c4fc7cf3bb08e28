/**
 * Prometheus text-format pieces, byte for byte as prom-client 15 writes them, so hand-rendered
 * families and prom-client's own render the same text (checked against prom-client in tests).
 */

/** prom-client's `escapeString`: used for HELP text. */
export function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/** prom-client's `escapeLabelValue`: backslash, newline, then the double quote. */
export function escapeLabelValue(value: string): string {
  return escapeHelp(value).replace(/"/g, '\\"');
}

/** `name="value"` pairs joined by commas, in the order given. */
export function formatLabelPairs(labels: Readonly<Record<string, string>>): string {
  let out = '';
  for (const [name, value] of Object.entries(labels)) out += `${out === '' ? '' : ','}${name}="${escapeLabelValue(value)}"`;
  return out;
}

/** prom-client's `getValueAsString` (it writes NaN as `Nan`, which Prometheus parses). */
export function formatValue(value: number): string {
  if (Number.isFinite(value)) return `${value}`;
  if (Number.isNaN(value)) return 'Nan';
  return value < 0 ? '-Inf' : '+Inf';
}

/** The `# HELP` and `# TYPE` lines of a family, without a trailing newline. */
export function familyHeader(name: string, help: string, type: string): string {
  return `# HELP ${name} ${escapeHelp(help)}\n# TYPE ${name} ${type}`;
}
