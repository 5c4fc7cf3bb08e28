/**
 * A terminal's view of the pino lines: one short line per record instead of JSON. A request
 * reads `GET /api/v1/tenants/x/clients 200 3 ms`; anything else is its message, with the level
 * first from `warn` up. Pure: the stream around it is in logger.ts. Keys are scrubbed before
 * a line gets here, and no field that could hold one is printed.
 */
const LEVEL_NAMES: Readonly<Record<number, string>> = { 40: 'warn', 50: 'error', 60: 'fatal' };

const text = (value: unknown): string | undefined => (typeof value === 'string' || typeof value === 'number' ? String(value) : undefined);

export function humanLine(json: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.trimEnd();
  }
  const level = typeof record['level'] === 'number' ? LEVEL_NAMES[record['level']] : undefined;
  const message = text(record['msg']) ?? '';
  if (message === 'request') {
    const faults = Array.isArray(record['faults']) ? ` (fault ${record['faults'].join(', ')})` : '';
    const parts = [record['method'], record['path'], record['status'], record['code']];
    const ms = text(record['ms']);
    return `${parts.map(text).filter(Boolean).join(' ')}${ms === undefined ? '' : ` ${ms} ms`}${faults}`;
  }
  const error = record['err'] as { message?: unknown } | undefined;
  const why = text(error?.message);
  return `${level ? `${level}: ` : ''}${message}${why ? `: ${why}` : ''}`;
}
