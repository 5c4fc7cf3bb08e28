/**
 * The dialect matrix: the toolkit's tools, through the real CLI, against the sandbox speaking
 * each preset (between them they flip every "not shown" choice). The sandbox and the monitor run
 * as `repairmon` processes; probe and discover through the CLI's own entry in this process. The truth of each dialect comes
 * from the hand-written preset table, never from the sandbox's own code.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { DialectSettings } from '../../sandbox/dialect/index.js';
import { ROOT } from '../diagnose/helpers.js';
import { PRESET_TABLE } from '../sandbox/dialect-presets.js';

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

export interface SandboxKey {
  readonly alias: string;
  readonly kind: 'platform' | 'tenant';
  readonly tenant: string | null;
  readonly key: string;
}

export interface SandboxProcess {
  readonly baseUrl: string;
  readonly keys: readonly SandboxKey[];
  key(alias: string): SandboxKey;
  close(): Promise<void>;
}

/** `repairmon sandbox --dialect PRESET --json` as a child process; the key values stay in this process. */
export async function startSandboxProcess(dialect: string, extra: readonly string[] = []): Promise<SandboxProcess> {
  const child: ChildProcess = spawn(process.execPath, [`${ROOT}bin/repairmon.js`, 'sandbox', '--port', '0', '--json', '--log-level', 'silent', '--rate-limit', '1000/1m', '--dialect', dialect, ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => String(line)),
    once(child, 'exit').then(() => {
      throw new Error(`sandbox --dialect ${dialect} exited: ${stderr}`);
    }),
  ]);
  const parsed = JSON.parse(first) as { baseUrl: string; keys: SandboxKey[] };
  return {
    baseUrl: parsed.baseUrl,
    keys: parsed.keys,
    key(alias) {
      const found = parsed.keys.find((k) => k.alias === alias);
      if (!found) throw new Error(`no key ${alias}`);
      return found;
    },
    async close() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The real `repairmon` entry (`cli/index.ts`: the same argv parsing and command code the binary
 * runs), in this process: a node start per run would cost more than the run itself here.
 */
export async function repairmon(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  const { main } = await import('../../cli/index.js');
  const { fakeIo } = await import('../cli/io.js');
  const io = { ...fakeIo(), env };
  const code = await main([...args], io);
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}
