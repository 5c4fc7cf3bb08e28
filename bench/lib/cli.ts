/** What every bench script shares when run alone: "am I the entry point?" and strict numeric flags. */
import { pathToFileURL } from 'node:url';

export function isEntryPoint(moduleUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && moduleUrl === pathToFileURL(entry).href;
}

/**
 * `--name N` from argv: undefined when absent, a clear error naming the flag when not a
 * number in range.
 */
export function numberFlag(argv: readonly string[], name: string, range: { min: number; max: number }): number | undefined {
  const index = argv.indexOf(`--${name}`);
  if (index === -1) return undefined;
  const raw = argv[index + 1];
  const value = Number(raw);
  if (raw === undefined || raw.trim() === '' || !Number.isFinite(value) || value < range.min || value > range.max) {
    throw new Error(`--${name} must be a number from ${range.min} to ${range.max}, got "${raw ?? ''}"`);
  }
  return value;
}

/** `--name a,b,c` as numbers, each checked like numberFlag. */
export function listFlag(argv: readonly string[], name: string, range: { min: number; max: number }): number[] | undefined {
  const index = argv.indexOf(`--${name}`);
  if (index === -1) return undefined;
  const raw = argv[index + 1] ?? '';
  const values = raw.split(',').map((s) => Number(s));
  if (raw.trim() === '' || values.some((v) => !Number.isInteger(v) || v < range.min || v > range.max)) {
    throw new Error(`--${name} must be a comma-separated list of whole numbers from ${range.min} to ${range.max}, got "${raw}"`);
  }
  return values;
}
