/**
 * The monitor config of the alert-latency stack: one target per fault, each on its own sandbox,
 * so every fault runs in parallel without touching another's probes, plus a healthy target
 * (with a narrow-scope key whose refusal its `expect` names) that must raise nothing. Written
 * as monitor.yaml would be and run through the real parser; keys are `${ENV}` references.
 */
import { type MonitorConfig, parseConfigValue } from '../../monitor/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';

/** The targets, each the name of what goes wrong on it. */
export const STACK_TARGETS = [
  'healthy',
  'outage',
  'html-502',
  'latency',
  'slow',
  'rate-limit',
  'isolation',
  'revoked-key',
  'typo-tenant',
] as const;
export type StackTarget = (typeof STACK_TARGETS)[number];

/** Faults that are a config change rather than a sandbox fault. */
export interface ConfigFaults {
  /** The key of target revoked-key is replaced by the sandbox's revoked key (as after a rotation gone wrong). */
  readonly revoked: boolean;
  /** The platform key of target typo-tenant also lists a misspelt tenant. */
  readonly typo: boolean;
}

export const NO_CONFIG_FAULTS: ConfigFaults = { revoked: false, typo: false };

interface RawKey {
  readonly alias: string;
  /** The sandbox's key it holds, when not the one of its alias. */
  readonly source?: string;
  readonly kind: 'tenant' | 'platform';
  readonly tenant?: string;
  readonly tenants?: readonly string[];
  readonly expect?: Readonly<Record<string, string>>;
}

const ALL_OFF = {
  cross_tenant: false,
  invalid_key: false,
  public_docs: false,
  other_header: false,
  platform_refused: false,
  index_access: false,
};

const NOWAK: RawKey = { alias: 'nowak-test', kind: 'tenant', tenant: 'rowery-nowak' };
const KOWALSKI: RawKey = { alias: 'kowalski-test', kind: 'tenant', tenant: 'serwis-kowalski' };
const platform = (tenants: string[]): RawKey => ({ alias: 'platform-test', kind: 'platform', tenants });

function keysOf(target: StackTarget, faults: ConfigFaults): RawKey[] {
  switch (target) {
    case 'healthy':
      return [NOWAK, { alias: 'nowak-nologs-test', kind: 'tenant', tenant: 'rowery-nowak', expect: { logs: 'insufficient_scope' } }];
    case 'isolation':
      return [NOWAK, KOWALSKI];
    case 'outage':
    case 'html-502':
      // Three keys over two tenants: an outage of every key, or of one.
      return [NOWAK, KOWALSKI, platform(['rowery-nowak', 'serwis-kowalski'])];
    case 'revoked-key':
      return [{ ...NOWAK, source: faults.revoked ? 'nowak-revoked-test' : 'nowak-test' }];
    case 'typo-tenant':
      return [platform(faults.typo ? ['rowery-nowak', 'rowery-nowakk'] : ['rowery-nowak'])];
    default:
      return [NOWAK];
  }
}

function canariesOf(target: StackTarget): unknown {
  if (target === 'healthy') return true;
  if (target === 'isolation') return { ...ALL_OFF, cross_tenant: true };
  return ALL_OFF;
}

const variable = (target: string, alias: string): string => `STACK_${target}_${alias}`.replace(/[^A-Za-z0-9_]/g, '_').toUpperCase();

interface StackConfigInput {
  readonly sandboxes: Readonly<Record<StackTarget, RunningSandbox>>;
  /** More targets like `outage`, each on its own sandbox: more samples of the whole outage's page. */
  readonly outageSamples?: readonly RunningSandbox[];
  readonly schedule: string;
  readonly timeout: string;
}

/** The name of the i-th extra whole-outage target (`outage` itself is the first sample). */
export const outageSampleTarget = (i: number): string => `outage-${i + 2}`;

/** The monitor's config for the given config faults, through the parser `serve` uses. */
export function stackConfig(input: StackConfigInput, faults: ConfigFaults): MonitorConfig {
  const env: Record<string, string> = {};
  const target = (name: string, kind: StackTarget, sandbox: RunningSandbox, keyCount = Infinity) => {
    const keys = keysOf(kind, faults)
      .slice(0, keyCount)
      .map(({ source, ...key }) => {
        env[variable(name, key.alias)] = sandbox.key(source ?? key.alias).key;
        return { ...key, secret: `\${${variable(name, key.alias)}}` };
      });
    return {
      name,
      baseUrl: sandbox.baseUrl,
      schedule: input.schedule,
      timeout: input.timeout,
      canaries: canariesOf(kind),
      ...(kind === 'healthy' || kind === 'outage' || kind === 'html-502'
        ? { platformPaths: [...sandbox.dialect.platformPaths], indexAccess: sandbox.dialect.index }
        : {}),
      // SLOs the latency faults break (the first past the timeout, the second below it). None on
      // the healthy target: on a loaded 2-core machine the monitor's own queueing can push a tight
      // p95 over it, which RepairmonLatencySLOBreached rightly reports, and that target must stay quiet.
      ...(kind === 'latency' || kind === 'slow' ? { slo: { repairs: '300ms' } } : {}),
      // Slow is not down: 600 ms answers against a 900 ms timeout leave a 300 ms margin, which CPU
      // stalls on a loaded 2-core CI crossed twice in a row once (2026-11-28), paging the slow
      // target as down. Three failures in a row make that false page unlikely; the SLO pages.
      ...(kind === 'slow' ? { failureThreshold: 3 } : {}),
      keys,
    };
  };
  const targets = [
    ...STACK_TARGETS.map((name) => target(name, name, input.sandboxes[name])),
    // One key each (the outage target has three): at the compressed schedule a round's probes all
    // start within 80 ms, so more keys would not move the page, only load the stack.
    ...(input.outageSamples ?? []).map((sandbox, i) => target(outageSampleTarget(i), 'outage', sandbox, 1)),
  ];
  const result = parseConfigValue({ concurrency: 32, historyPerProbe: 10, targets }, { env, baseDir: process.cwd() });
  if (!result.ok) throw new Error(`the stack's config is not valid: ${result.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  return result.config;
}
