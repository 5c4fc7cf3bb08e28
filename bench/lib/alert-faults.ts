/**
 * The faults the alert-latency stack injects, each on its own target (or monitor process), and
 * the alert each must raise: name, severity, the Alertmanager receiver it must reach, and the
 * labels that say which target, tenant and key it is about.
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
  sandbox(target: StackTarget): RunningSandbox;
  setConfigFault(name: keyof ConfigFaults, on: boolean): Promise<void>;
  stopSecondMonitor(): Promise<void>;
  startSecondMonitor(): Promise<void>;
}

export interface FaultScenario {
  readonly name: string;
  /** The target (or, for the stopped monitor, the job) the fault is on: other alerts there are "also fired". */
  readonly scope: Readonly<Record<string, string>>;
  readonly what: string;
  readonly expect: ExpectedAlert;
  /**
   * How long the resolution may take after the fault is cleared, in seconds at the scaled
   * schedule: the rule's `keep_firing_for` and windows plus the pipeline's delays.
   */
  readonly resolveWithinSeconds: number;
  inject(stack: StackHandles): Promise<void>;
  clear(stack: StackHandles): Promise<void>;
}

/** The Alertmanager receivers of the shipped routing. */
const PAGER = 'ops-pager';
const TICKETS = 'ops-tickets';
const SUPPORT = 'support-tickets';
const SECURITY_PAGER = 'security-pager';

function sandboxFault(name: string, target: StackTarget, spec: string, what: string, expect: ExpectedAlert, resolveWithinSeconds = 60): FaultScenario {
  return {
    name,
    scope: { target },
    what,
    expect,
    resolveWithinSeconds,
    inject: async (stack) => stack.sandbox(target).setFaults(spec),
    clear: async (stack) => stack.sandbox(target).setFaults(''),
  };
}

export const FAULTS: readonly FaultScenario[] = [
  sandboxFault('html-502', 'html-502', 'html-502@/tenants/*/bikes', "a proxy's HTML 502 on one resource (bikes)", {
    alertname: 'RepairmonEndpointDown',
    severity: 'page',
    receiver: PAGER,
    labels: { target: 'html-502', endpoint: 'bikes', tenant: 'rowery-nowak', key_alias: 'nowak-test', class: 'service' },
  }),
  sandboxFault('latency', 'latency', 'latency:1500@/tenants/*/repairs', 'repairs answered after 1.5 s, past the probe timeout', {
    alertname: 'RepairmonEndpointDown',
    severity: 'page',
    receiver: PAGER,
    labels: { target: 'latency', endpoint: 'repairs', tenant: 'rowery-nowak', key_alias: 'nowak-test', class: 'service' },
  }),
  sandboxFault('rate-limit-storm', 'rate-limit', 'rate-limit-storm:1', 'every request 429 with Retry-After: 1', {
    alertname: 'RepairmonRateLimitedLong',
    severity: 'ticket',
    receiver: TICKETS,
    // Per key and tenant: `/` and `/docs` (tenant "") and the tenant's reads are two alerts of one
    // notification group; the first to arrive is the ticket.
    labels: { target: 'rate-limit', key_alias: 'nowak-test' },
  }),
  // The breach is held for an hour after the last one (keep_firing_for 1h: 2 minutes here).
  sandboxFault('isolation-breach', 'isolation', 'isolation-breach', "tenant keys read other tenants' data", {
    alertname: 'RepairmonTenantIsolationBreach',
    severity: 'page',
    receiver: SECURITY_PAGER,
    labels: { target: 'isolation', check: 'cross_tenant', class: 'breach' },
  }, 200),
  {
    name: 'revoked-key',
    scope: { target: 'revoked-key' },
    what: "the key is swapped for a revoked one (reload), then back",
    expect: { alertname: 'RepairmonKeyRejected', severity: 'ticket', receiver: SUPPORT, labels: { target: 'revoked-key', endpoint: 'clients', tenant: 'rowery-nowak', key_alias: 'nowak-test', class: 'key' } },
    resolveWithinSeconds: 60,
    inject: (stack) => stack.setConfigFault('revoked', true),
    clear: (stack) => stack.setConfigFault('revoked', false),
  },
  {
    name: 'misspelt-tenant',
    scope: { target: 'typo-tenant' },
    what: 'a platform key also lists rowery-nowakk (reload), then the typo is fixed',
    expect: { alertname: 'RepairmonTenantNotFound', severity: 'ticket', receiver: SUPPORT, labels: { target: 'typo-tenant', endpoint: 'clients', tenant: 'rowery-nowakk', key_alias: 'platform-test', class: 'config' } },
    resolveWithinSeconds: 60,
    inject: (stack) => stack.setConfigFault('typo', true),
    clear: (stack) => stack.setConfigFault('typo', false),
  },
  {
    name: 'monitor-stopped',
    scope: { job: 'repairmon-second' },
    what: 'a second `repairmon serve` process is stopped, then started again on its port',
    expect: { alertname: 'RepairmonMonitorDown', severity: 'page', receiver: PAGER, labels: { job: 'repairmon-second' } },
    resolveWithinSeconds: 60,
    inject: (stack) => stack.stopSecondMonitor(),
    clear: (stack) => stack.startSecondMonitor(),
  },
];

/** Alerts that must never fire in the stack: anything on the healthy target, and an outage page for a misspelt tenant. */
export const NEVER: ReadonlyArray<Readonly<Record<string, string>>> = [{ target: 'healthy' }, { target: 'typo-tenant', alertname: 'RepairmonEndpointDown' }];
