/**
 * The dialect matrix: the toolkit's tools, through the real CLI, against the sandbox speaking
 * each preset (between them they flip every "not shown" choice). The sandbox and the monitor run
 * as `repairmon` processes; probe and discover through the CLI's own entry in this process. The truth of each dialect comes
 * from the hand-written preset table, never from the sandbox's own code.
 */
import type { DialectSettings } from '../../sandbox/dialect/index.js';
import { type SandboxProcess, startSandboxProcess } from './rig.js';
import { PRESET_TABLE } from './dialect-presets.js';

export const PRESETS = Object.keys(PRESET_TABLE);
export const truth = (preset: string): DialectSettings => {
  const settings = PRESET_TABLE[preset];
  if (!settings) throw new Error(`no preset ${preset}`);
  return settings;
};

/** A demo tenant's slug as the dialect spells it (the demo data follows the slug style). */
export function slugIn(settings: DialectSettings, kebab: string): string {
  return settings.slug === 'snake' ? kebab.replace(/-/g, '_') : kebab;
}

/** `repairmon sandbox --dialect PRESET` as a child process; the key values stay in this process. */
export function dialectSandbox(preset: string, extra: readonly string[] = []): Promise<SandboxProcess> {
  return startSandboxProcess(['--rate-limit', '1000/1m', '--dialect', preset, ...extra]);
}
