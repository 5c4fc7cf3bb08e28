/** The `--help` text for dialects, written from the tables so it cannot drift from them. */
import { CHOICES, REFERENCE_SETTINGS, formatSetting, sameSetting } from './choices.js';
import { PRESETS, PRESET_NAMES, type PresetName } from './presets.js';

/** What a preset sets, as the overrides of the defaults it amounts to. */
export function presetOverrides(name: PresetName): string[] {
  const { settings } = PRESETS[name];
  return CHOICES.filter((c) => !sameSetting(c, settings, REFERENCE_SETTINGS)).map((c) => formatSetting(c, settings));
}

/** `items` joined by ", " in lines of at most `width` characters. */
function wrap(items: readonly string[], width: number): string[] {
  const lines: string[] = [];
  for (const item of items) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + item.length + 2 <= width) lines[lines.length - 1] = `${last}, ${item}`;
    else lines.push(item);
  }
  return lines.map((line, i) => (i < lines.length - 1 ? `${line},` : line));
}

/** Lines listing every choice with its values and default, then every preset with what it sets. */
export function dialectHelpLines(): string[] {
  const lines = ['Dialect keys (KEY: VALUE meaning; the first value is the default):'];
  for (const choice of CHOICES) {
    lines.push(`  ${choice.key}: ${choice.meaning}`);
    choice.values.forEach((v, i) => lines.push(`    ${v.value.padEnd(22)} ${v.meaning}${i === 0 ? ' (default)' : ''}`));
  }
  lines.push('Dialect presets:');
  for (const name of PRESET_NAMES) {
    lines.push(`  ${name.padEnd(24)} ${PRESETS[name].about}`);
    const overrides = presetOverrides(name);
    const sets = overrides.length === 0 ? ['all defaults'] : wrap(overrides, 80);
    sets.forEach((line, i) => lines.push(`  ${''.padEnd(24)} ${i === 0 ? 'sets: ' : '      '}${line}`));
  }
  return lines;
}
