/**
 * `--dialect`: a preset name, optionally followed by `KEY=VALUE` overrides, comma-separated
 * (`snake-public`, `reference,index=public`, `slug=snake,rate-limit-headers=none`). Pure: text
 * in, a typed Dialect or an error naming the key and value at fault and what is allowed.
 */
import type { Readings } from '../../api/contract/server/index.js';
import { CHOICES, type DialectSettings, overridesOf } from './choices.js';
import { PRESETS, PRESET_NAMES, type PresetName, isPresetName } from './presets.js';

/** What a running sandbox speaks: one value per choice, plus where they came from. */
export interface Dialect extends DialectSettings {
  /** Canonical spec: the preset, then `KEY=VALUE` for each setting that differs from it. */
  readonly name: string;
  readonly preset: PresetName;
}

export type DialectParse = { readonly ok: true; readonly dialect: Dialect } | { readonly ok: false; readonly error: string };

export const DEFAULT_DIALECT = 'reference';

const PRESET_LIST = PRESET_NAMES.join(', ');
const KEY_LIST = CHOICES.map((c) => c.key).join(', ');

function fail(error: string): DialectParse {
  return { ok: false, error };
}

/** `index=unknown`: a document may leave the index open; a running sandbox must pick one. */
const OPEN_INDEX = 'index=unknown';

function applyOverride(item: string, settings: Record<string, unknown>, seen: Set<string>, openIndex = false): string | undefined {
  const eq = item.indexOf('=');
  if (eq === -1) return `"${item}" is not KEY=VALUE: a preset may only come first; allowed presets: ${PRESET_LIST}`;
  const key = item.slice(0, eq).trim();
  const raw = item.slice(eq + 1).trim();
  const choice = CHOICES.find((c) => c.key === key);
  if (!choice) return `unknown key "${key}" in "${item}"; allowed keys: ${KEY_LIST}`;
  if (seen.has(key)) return `key "${key}" is given twice`;
  seen.add(key);
  if (openIndex && `${key}=${raw}` === OPEN_INDEX) {
    settings['index'] = 'unknown';
    return undefined;
  }
  const parsed = choice.parse(raw);
  if (!parsed.ok) {
    const why = parsed.problem === undefined ? '' : ` (${parsed.problem})`;
    return `${key}: value "${raw}" is not allowed${why}; allowed values: ${choice.allowed}`;
  }
  settings[choice.field] = parsed.value;
  return undefined;
}

function itemsOf(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

export function parseDialect(text: string): DialectParse {
  const items = itemsOf(text);
  let preset: PresetName = DEFAULT_DIALECT;
  const first = items[0];
  if (first !== undefined && !first.includes('=')) {
    if (!isPresetName(first)) return fail(`unknown preset "${first}"; allowed presets: ${PRESET_LIST}`);
    preset = first;
    items.shift();
  }
  const settings: Record<string, unknown> = { ...PRESETS[preset].settings };
  const seen = new Set<string>();
  for (const item of items) {
    const error = applyOverride(item, settings, seen);
    if (error !== undefined) return fail(error);
  }
  const name = [preset, ...overridesOf(settings as unknown as DialectSettings, PRESETS[preset].settings)].join(',');
  return { ok: true, dialect: { name, preset, ...(settings as unknown as DialectSettings) } };
}

/** Readings a document narrows to (`repairmon openapi --dialect`); a point left out is open. */
export type ReadingsParse =
  { readonly ok: true; readonly readings: Partial<Readings>; readonly name: string } | { readonly ok: false; readonly error: string };

/**
 * `repairmon openapi --dialect`: a preset narrows every point (then `KEY=VALUE` overrides);
 * `KEY=VALUE` pairs alone narrow only their points and leave the rest open. Every value a
 * reading has is taken, `index=unknown` (open) too, which a running sandbox cannot speak.
 */
export function parseReadings(text: string): ReadingsParse {
  const items = itemsOf(text);
  const first = items[0];
  if (first !== undefined && !first.includes('=')) {
    const open = items.includes(OPEN_INDEX);
    const full = parseDialect(items.filter((item) => item !== OPEN_INDEX).join(','));
    if (!full.ok) return full;
    const { name, preset: _preset, ...settings } = full.dialect;
    return open
      ? { ok: true, readings: { ...settings, index: 'unknown' }, name: `${name},${OPEN_INDEX}` }
      : { ok: true, readings: settings, name };
  }
  const settings: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const item of items) {
    const error = applyOverride(item, settings, seen, true);
    if (error !== undefined) return { ok: false, error };
  }
  return { ok: true, readings: settings, name: items.length === 0 ? 'none: every point open' : items.join(',') };
}
