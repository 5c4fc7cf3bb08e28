/**
 * The faults the alert-latency stack injects, each on its own target (or monitor process), and
 * the alert each must raise: name, severity, the Alertmanager receiver it must reach, and the
 * labels that say what it is about; plus the other alerts it may bring along (anything else in
 * its scope is a false notification).
 */
import type { RunningSandbox } from '../../sandbox/index.js';
import type { ConfigFaults, StackTarget } from './alert-stack-config.js';

export interface ExpectedAlert {
  readonly alertname: string;
  readonly severity: 'page' | 'ticket';
  /** The receiver of deploy/alertmanager/alertmanager.yml it must be routed to. */
  readonly receiver: string;
  /** Labels the alert must carry (a subset of its labels). */
  readonly labels: Readonly<Record<string, string>>;
}

/** What a fault can do to the stack. */
export interface StackHandles {
  /** A target's sandbox, or (`second`) the one the second monitor process probes. */
  sandbox(target: StackTarget | 'second'): RunningSandbox;
  setConfigFault(name: keyof ConfigFaults, on: boolean): Promise<void>;
  stopSecondMonitor(): Promise<void>;
  startSecondMonitor(): Promise<void>;
  /** Waits until an alert with these labels has been notified firing (a fault's precondition). */
  firing(labels: Readonly<Record<string, string>>): Promise<void>;
}

export interface FaultScenario {
  readonly name: string;
  /** Label sets of the alerts this fault is about (its target, or its monitor's job): anything they raise is counted here. */
  readonly scope: ReadonlyArray<Readonly<Record<string, string>>>;
  readonly what: string;
  readonly expect: ExpectedAlert;
  /** Alert names (`name` or `name/severity`) that may fire along with the expected one; any other is a false notification. */
  readonly companions?: readonly string[];
  /** Seconds (at a 1 s schedule) the fault stays on after its alert arrived: a resolution meanwhile is a false notification. */
  readonly holdSeconds?: number;
  /** Seconds (scaled) every alert of its scope may take to resolve after the clearing: `keep_firing_for`, windows, pipeline delays. */
  readonly resolveWithinSeconds: number;
  /** Brought about before the clock starts (the stopped monitor first has an alert to keep). */
  prepare?(stack: StackHandles): Promise<void>;
  inject(stack: StackHandles): Promise<void>;
  clear(stack: StackHandles): Promise<void>;
}

/** The Alertmanager receivers of the shipped routing. */
const PAGER = 'ops-pager';
const TICKETS = 'ops-tickets';
const SUPPORT = 'support-tickets';
const SECURITY_PAGER = 'security-pager';

type SandboxFault = Omit<FaultScenario, 'scope' | 'inject' | 'clear' | 'resolveWithinSeconds'> & { readonly resolveWithinSeconds?: number };

function sandboxFault(target: StackTarget, spec: string, fault: SandboxFault): FaultScenario {
  return {
    resolveWithinSeconds: 60,
    ...fault,
    scope: [{ target }],
    inject: async (stack) => stack.sandbox(target).setFaults(spec),
    clear: async (stack) => stack.sandbox(target).setFaults(''),
  };
}

/** The target the second monitor process probes (benchMonitorYaml's name). */
export const SECOND_MONITOR_TARGET = 'bench';
/** What the second monitor's sandbox fails with while the monitor is stopped: an outage it must not forget. */
const SECOND_MONITOR_FAULT = 'html-502@/tenants/*/bikes';

export const FAULTS: readonly FaultScenario[] = [
  // Every endpoint of every key answers a proxy's HTML 502 for about 3 minutes (at the default
  // schedule): one outage, so one page, and nothing may stay up long after it ends.
  sandboxFault('outage', 'html-502', {
    name: 'whole-outage',
    what: "every path answers a proxy's HTML 502 (all endpoints, all keys) for ~3 min",
    expect: { alertname: 'RepairmonEndpointDown', severity: 'page', receiver: PAGER, labels: { target: 'outage' } },
    companions: ['RepairmonErrorBudgetBurn/page'],
    holdSeconds: 4,
  }),
  sandboxFault('html-502', 'html-502@/tenants/*/bikes', {
    name: 'partial-outage',
    what: "a proxy's HTML 502 on one resource (bikes) of one key's tenant",
    expect: { alertname: 'RepairmonEndpointDown', severity: 'page', receiver: PAGER, labels: { target: 'html-502', endpoint: 'bikes' } },
    companions: ['RepairmonErrorBudgetBurn/page'],
  }),
  sandboxFault('latency', 'latency:1500@/tenants/*/repairs', {
    name: 'latency',
    what: 'repairs answered after 1.5 s, past the probe timeout',
    expect: { alertname: 'RepairmonEndpointDown', severity: 'page', receiver: PAGER, labels: { target: 'latency', endpoint: 'repairs' } },
    companions: ['RepairmonErrorBudgetBurn/page', 'RepairmonLatencySLOBreached'],
  }),
  // Below the timeout, far above the SLO (the 3 s against 800 ms): slow enough to be down.
  // 600 ms, not 700: on a loaded 2-core CI a 200 ms margin to the timeout turned CPU stalls into
  // timeouts, and the down page fired for this fault (a false page the test refuses).
  sandboxFault('slow', 'latency:600@/tenants/*/repairs', {
    name: 'slow',
    what: 'repairs answered after 600 ms (SLO 300 ms, timeout 900 ms)',
    expect: {
      alertname: 'RepairmonLatencySLOBreached',
      severity: 'page',
      receiver: PAGER,
      labels: { target: 'slow', endpoint: 'repairs' },
    },
    companions: ['RepairmonLatencySLOBreached/ticket'],
  }),
  sandboxFault('rate-limit', 'rate-limit-storm:1', {
    name: 'rate-limit-storm',
    what: 'every request 429 with Retry-After: 1',
    // Per key and tenant: `/` and `/docs` (tenant "") and the tenant's reads are two alerts of one
    // notification group; the first to arrive is the ticket.
    expect: {
      alertname: 'RepairmonRateLimitedLong',
      severity: 'ticket',
      receiver: TICKETS,
      labels: { target: 'rate-limit', key_alias: 'nowak-test' },
    },
  }),
  sandboxFault('isolation', 'isolation-breach', {
    name: 'isolation-breach',
    what: "tenant keys read other tenants' data",
    expect: {
      alertname: 'RepairmonTenantIsolationBreach',
      severity: 'page',
      receiver: SECURITY_PAGER,
      labels: { target: 'isolation', check: 'cross_tenant', class: 'breach' },
    },
  }),
  {
    name: 'revoked-key',
    scope: [{ target: 'revoked-key' }],
    what: 'the key is swapped for a revoked one (reload), then back',
    expect: {
      alertname: 'RepairmonKeyRejected',
      severity: 'ticket',
      receiver: SUPPORT,
      labels: { target: 'revoked-key', endpoint: 'clients', tenant: 'rowery-nowak', key_alias: 'nowak-test', class: 'key' },
    },
    resolveWithinSeconds: 60,
    inject: (stack) => stack.setConfigFault('revoked', true),
    clear: (stack) => stack.setConfigFault('revoked', false),
  },
  {
    name: 'misspelt-tenant',
    scope: [{ target: 'typo-tenant' }],
    what: 'a platform key also lists rowery-nowakk (reload), then the typo is fixed',
    expect: {
      alertname: 'RepairmonTenantNotFound',
      severity: 'ticket',
      receiver: SUPPORT,
      labels: { target: 'typo-tenant', endpoint: 'clients', tenant: 'rowery-nowakk', key_alias: 'platform-test', class: 'config' },
    },
    resolveWithinSeconds: 60,
    inject: (stack) => stack.setConfigFault('typo', true),
    clear: (stack) => stack.setConfigFault('typo', false),
  },
  {
    name: 'monitor-stopped',
    scope: [{ job: 'repairmon-second' }, { target: SECOND_MONITOR_TARGET }],
    what: 'a second `repairmon serve` process with an outage paging is stopped (SIGTERM), then started again on its port',
    expect: { alertname: 'RepairmonMonitorDown', severity: 'page', receiver: PAGER, labels: { job: 'repairmon-second' } },
    // Its target's outage page was raised before the clock started; it must not resolve while
    // the monitor is away, and resolves once the monitor is back and the outage over. That
    // outage is the longest of the run (raised, then the monitor stopped and restarted): on a
    // loaded runner it lasted into the slow-burn window, and the burn ticket came as well.
    companions: ['RepairmonEndpointDown', 'RepairmonErrorBudgetBurn'],
    resolveWithinSeconds: 60,
    prepare: async (stack) => {
      stack.sandbox('second').setFaults(SECOND_MONITOR_FAULT);
      await stack.firing({ alertname: 'RepairmonEndpointDown', target: SECOND_MONITOR_TARGET });
    },
    inject: (stack) => stack.stopSecondMonitor(),
    clear: async (stack) => {
      stack.sandbox('second').setFaults('');
      await stack.startSecondMonitor();
    },
  },
];

/** Alerts that must never fire in the stack: anything on the healthy target, and an outage page for a misspelt tenant. */
export const NEVER: ReadonlyArray<Readonly<Record<string, string>>> = [
  { target: 'healthy' },
  { target: 'typo-tenant', alertname: 'RepairmonEndpointDown' },
];
