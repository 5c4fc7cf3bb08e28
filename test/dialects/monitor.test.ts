/**
 * `repairmon serve` against every dialect, through the real CLI: on a healthy API every
 * `repairmon_probe_success` is 1 within two ticks, with the readings left at their defaults and
 * with them configured as discovery reports them; and a tenant-isolation breach is still caught
 * (the cross_tenant canary reports `tenant_isolation_breach`, which RepairmonTenantIsolationBreach
 * pages on: see deploy/prometheus/tests/isolation-breach.test.yml).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectSettings } from '../../sandbox/dialect/index.js';
import { type SandboxProcess, ensureBuilt, spawnCli, waitFor } from '../helpers/rig.js';
import { PRESETS, dialectSandbox, slugIn, truth } from '../helpers/dialects.js';

const ALIASES = ['platform-test', 'nowak-test', 'kowalski-test'] as const;
const dir = mkdtempSync(join(tmpdir(), 'dialect-monitor-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => ensureBuilt());

interface Target {
  readonly name: string;
  readonly sandbox: SandboxProcess;
  readonly readings: boolean;
}

function targetYaml(t: Target, d: DialectSettings, env: Record<string, string>, schedule: string): string[] {
  const tenants = ['rowery-nowak', 'serwis-kowalski', 'cykl-gdansk'].map((s) => slugIn(d, s));
  const keys = ALIASES.map((alias) => {
    const variable = `KEY_${t.name}_${alias}`.replace(/[^A-Za-z0-9]/g, '_');
    const k = t.sandbox.key(alias);
    env[variable] = k.key;
    const assignment = k.kind === 'platform' ? `tenants: [${tenants.join(', ')}]` : `tenant: ${k.tenant}`;
    return `      - { alias: ${alias}, kind: ${k.kind}, ${assignment}, secret: "\${${variable}}" }`;
  });
  const readings = t.readings ? [`    platformPaths: [${d.platformPaths.join(', ')}]`, `    indexAccess: ${d.index}`] : [];
  return [
    `  - name: ${t.name}`,
    `    baseUrl: ${t.sandbox.baseUrl}`,
    `    schedule: "${schedule}"`,
    '    timeout: 2500ms',
    ...readings,
    '    keys:',
    ...keys,
  ];
}

async function serve(config: string, env: Record<string, string>): Promise<{ url: string; close(): Promise<number> }> {
  const child = spawnCli(['serve', '--config', config, '--listen', '127.0.0.1:0', '--log-level', 'silent'], { env });
  const ended = (): boolean => child.child.exitCode !== null;
  await waitFor(() => /status http/.test(child.stdout()) || ended(), { what: 'the serve banner', timeoutMs: 30_000 });
  const url = /status (http:\/\/\S+)\//.exec(child.stdout())?.[1];
  if (!url) throw new Error(`serve did not start: ${child.stdout()}${child.stderr()}`);
  return {
    url,
    close() {
      child.child.kill('SIGTERM');
      return child.exited;
    },
  };
}

interface Series {
  readonly labels: Record<string, string>;
  readonly value: number;
}

function series(text: string, name: string): Series[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`))
    .map((line) => {
      const body = line.slice(name.length + 1, line.lastIndexOf('}'));
      const labels = Object.fromEntries([...body.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
      return { labels, value: Number(line.slice(line.lastIndexOf(' ') + 1)) };
    });
}

/**
 * The scrape once every target's first two ticks have finished (its third has started): every
 * probe of the plan has run twice by then, spread over its tick.
 */
async function afterTwoTicks(url: string, targets: readonly string[]): Promise<string> {
  let ticks: Series[] = [];
  return waitFor(
    async () => {
      const text = await (await request(`${url}/metrics`)).body.text();
      ticks = series(text, 'repairmon_scheduler_ticks_total');
      return targets.every((t) => (ticks.find((s) => s.labels['target'] === t)?.value ?? 0) >= 3) && text;
    },
    { what: () => `two ticks: ${JSON.stringify(ticks)}`, timeoutMs: 45_000, everyMs: 200 },
  );
}

/** A failing probe's labels with the reason the monitor gives, for the assertion message. */
function reasonOf(text: string, labels: Record<string, string>): string {
  const same = (s: Series): boolean => ['target', 'endpoint', 'tenant', 'key_alias', 'check'].every((k) => s.labels[k] === labels[k]);
  const reason = series(text, 'repairmon_probe_failure_reason').find(same)?.labels['reason'];
  return `${labels['target']}/${labels['key_alias']}/${labels['tenant']}/${labels['endpoint']}/${labels['check']}: ${reason ?? '?'}`;
}

/** The targets of one dialect: a healthy sandbox with the readings left at their defaults and configured, and a breached one. */
const targetName = (preset: string, role: 'defaults' | 'configured' | 'breached'): string => `${preset}-${role}`;

/**
 * One monitor process watching, for every dialect, a healthy and a breached sandbox of that
 * dialect. Each target ticks every 3 s with a 2.5 s timeout, a third of them in each second:
 * as many probes a second as three dialects at a time in one tick each, so that a tighter
 * timeout or a burst on two cores does not put the test machine's load under test instead of
 * the API's readings.
 */
async function runDialects(): Promise<{ processes: { close(): Promise<unknown> }[]; text: string }> {
  const started = await Promise.all(
    PRESETS.map(async (preset) => ({
      preset,
      pair: await Promise.all([dialectSandbox(preset), dialectSandbox(preset, ['--faults', 'isolation-breach'])]),
    })),
  );
  const env: Record<string, string> = {};
  const lines: string[] = [];
  const names: string[] = [];
  for (const { preset, pair } of started) {
    const [healthy, breached] = pair;
    const targets: Target[] = [
      { name: targetName(preset, 'defaults'), sandbox: healthy, readings: false },
      { name: targetName(preset, 'configured'), sandbox: healthy, readings: true },
      { name: targetName(preset, 'breached'), sandbox: breached, readings: true },
    ];
    for (const t of targets) {
      lines.push(...targetYaml(t, truth(preset), env, `${names.length % 3}-59/3 * * * * *`));
      names.push(t.name);
    }
  }
  const config = join(dir, 'dialects.yaml');
  writeFileSync(config, ['targets:', ...lines].join('\n'));
  const monitor = await serve(config, env);
  const processes = [monitor, ...started.flatMap((s) => s.pair)];
  return { processes, text: await afterTwoTicks(monitor.url, names) };
}

let run: Awaited<ReturnType<typeof runDialects>> | undefined;
beforeAll(async () => {
  run = await runDialects();
}, 120_000);
afterAll(async () => Promise.all((run?.processes ?? []).map((p) => p.close())));

describe.each(PRESETS)('repairmon serve against the %s dialect', (preset) => {
  let text = '';
  beforeAll(() => {
    text = run?.text ?? '';
  });
  const healthy = [targetName(preset, 'defaults'), targetName(preset, 'configured')];
  const breachedTarget = targetName(preset, 'breached');

  it('a healthy API: every probe succeeds within two ticks, readings at their defaults or configured', () => {
    for (const target of healthy) {
      const probes = series(text, 'repairmon_probe_success').filter((s) => s.labels['target'] === target);
      const planned = series(text, 'repairmon_scheduler_probes_configured').find((s) => s.labels['target'] === target)?.value;
      expect(probes.length).toBe(planned);
      expect(probes.filter((s) => s.value !== 1).map((s) => reasonOf(text, s.labels))).toEqual([]);
    }
    const configured = series(text, 'repairmon_probe_success').filter((s) => s.labels['target'] === targetName(preset, 'configured'));
    // The configured readings turn the platform reads and refusals and the index canary on.
    expect(configured.some((s) => s.labels['check'] === 'platform_refused')).toBe(true);
    expect(configured.some((s) => s.labels['check'] === 'index_access')).toBe(true);
  });

  it('no deviation where the dialect keeps the codes the spec names', () => {
    const reasons = series(text, 'repairmon_probe_failure_reason').filter(
      (s) => healthy.includes(s.labels['target'] ?? '') && s.value === 1,
    );
    expect(reasons.filter((s) => s.labels['reason'] !== 'none').map((s) => s.labels)).toEqual([]);
  });

  it('an isolation breach is caught by the cross_tenant canary of every tenant key, and only there', () => {
    const breachedProbes = series(text, 'repairmon_probe_success').filter((s) => s.labels['target'] === breachedTarget);
    const failing = breachedProbes.filter((s) => s.value !== 1);
    expect(failing.map((s) => `${s.labels['check']}/${s.labels['key_alias']}`).sort()).toEqual([
      'cross_tenant/kowalski-test',
      'cross_tenant/nowak-test',
    ]);
    const reasons = series(text, 'repairmon_probe_failure_reason').filter(
      (s) => s.labels['target'] === breachedTarget && s.labels['check'] === 'cross_tenant',
    );
    expect(new Set(reasons.map((s) => s.labels['reason']))).toEqual(new Set(['tenant_isolation_breach']));
  });
});
