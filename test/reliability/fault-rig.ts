/**
 * The fault matrix's rows as data, and the two subjects (client, monitor) run against one row.
 * A row names how the fault is produced (a sandbox fault spec, a closed port, an unresolvable
 * host, or a scripted origin for answers the sandbox cannot give) and what each subject must
 * make of it, exactly.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CANARY_NAMES, type CanaryName } from '../../monitor/config/schema.js';
import type { MonitorConfig } from '../../monitor/config/types.js';
import { type SandboxLike, demoConfig } from '../../monitor/demo-config.js';
import type { HistoryEntry } from '../../monitor/history.js';
import { createMonitor } from '../../monitor/service.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { ApiKey, createClient, isApiError } from '../../api/client/index.js';
import { createLogger } from '../../lib/logger.js';

export type FaultSource =
  | { readonly kind: 'sandbox'; readonly spec: string }
  | { readonly kind: 'refused' }
  | { readonly kind: 'dns' }
  | { readonly kind: 'scripted'; readonly status: number; readonly body: string; readonly headers?: Readonly<Record<string, string>> };

export interface FaultRow {
  readonly fault: string;
  readonly source: FaultSource;
  /** `name` of the error class plus fields it must carry, or `success` where the fault is not one for the client. */
  readonly client: { readonly name: string; readonly fields: Readonly<Record<string, unknown>>; readonly maxRetries?: number };
  readonly monitor: { readonly outcome: string; readonly reason: string };
}

/** Short enough to keep the matrix fast, long enough that the healthy sandbox never trips it. */
/** Generous for a loaded 2-core CI machine; the latency row waits well past it. */
export const TIMEOUT_MS = 1_500;
export const MAX_BODY_BYTES = 4096;
export const TENANT = 'rowery-nowak';
export const ALIAS = 'nowak-test';

export interface Scripted {
  readonly baseUrl: string;
  set(status: number, body: string, headers?: Readonly<Record<string, string>>): void;
  close(): Promise<void>;
}

/** An origin that answers every request with one fixed status and body. */
export async function startScripted(): Promise<Scripted> {
  let reply: { status: number; body: string; headers?: Readonly<Record<string, string>> | undefined } = { status: 200, body: '' };
  const server = createServer((_req, res) => {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(reply.body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    set: (status, body, headers) => void (reply = { status, body, headers }),
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

export interface Origins {
  /** `{other}` in a sandbox fault spec stands for this origin (the redirect target). */
  readonly other: string;
  readonly faulty: RunningSandbox;
  readonly healthy: RunningSandbox;
  readonly scripted: Scripted;
  readonly refusedPort: number;
}

/** Applies the row's fault and returns the base URL the faulty subject must use. */
export function arm(row: FaultRow, origins: Origins): string {
  origins.faulty.setFaults(row.source.kind === 'sandbox' ? row.source.spec.replace('{other}', origins.other) : '');
  switch (row.source.kind) {
    case 'sandbox':
      return origins.faulty.baseUrl;
    case 'refused':
      return `http://127.0.0.1:${origins.refusedPort}/api/v1`;
    case 'dns':
      return 'http://repair-sandbox.invalid/api/v1';
    case 'scripted':
      origins.scripted.set(row.source.status, row.source.body, row.source.headers);
      return origins.scripted.baseUrl;
  }
}

/**
 * One call, no retries by default: the classification of a single faulty answer is what is
 * asserted. Rows that prove a refusal to wait allow retries, so "failed at once" means something.
 */
export async function clientOutcome(baseUrl: string, sandbox: RunningSandbox, maxRetries = 0): Promise<unknown> {
  const client = createClient({
    baseUrl,
    apiKey: new ApiKey(sandbox.key(ALIAS).key, ALIAS),
    tenant: TENANT,
    maxRetries,
    attemptTimeoutMs: TIMEOUT_MS,
    totalTimeoutMs: 5_000,
    logLevel: 'silent',
  });
  try {
    return await client.list('clients').then(
      (data) => ({ unexpectedSuccess: data }),
      (error: unknown) => error,
    );
  } finally {
    await client.close();
  }
}

export function describeClient(error: unknown): string {
  if (!isApiError(error)) return `not an ApiError: ${String(error)}`;
  const e = error as unknown as Record<string, unknown>;
  const extra = ['networkCode', 'phase', 'problem', 'retryAfterMs', 'stopReason']
    .filter((f) => e[f] !== undefined)
    .map((f) => `${f}=${String(e[f])}`);
  return [error.name, error.status === undefined ? '' : `HTTP ${error.status}`, ...extra].filter(Boolean).join(' ');
}

const NO_CANARIES = Object.fromEntries(CANARY_NAMES.map((n) => [n, false])) as Record<CanaryName, boolean>;

function targetConfig(source: SandboxLike, name: string): MonitorConfig['targets'][number] {
  const made = demoConfig(source, {
    targetName: name,
    aliases: [ALIAS],
    canaries: NO_CANARIES,
    timeoutMs: TIMEOUT_MS,
    maxBodyBytes: MAX_BODY_BYTES,
  });
  const [target] = made.targets;
  if (!target) throw new Error('demoConfig made no target');
  return target;
}

export interface MonitorRound {
  readonly faulty: HistoryEntry;
  readonly healthy: readonly HistoryEntry[];
  readonly healthyPlanned: number;
}

/** One monitor, two targets (faulty, healthy), one awaited round. */
export async function monitorRound(baseUrl: string, origins: Origins): Promise<MonitorRound> {
  const config: MonitorConfig = {
    concurrency: 8,
    historyPerProbe: 10,
    targets: [
      targetConfig({ ...origins.faulty, baseUrl, keys: origins.faulty.keys, tenants: origins.faulty.tenants }, 'faulty'),
      targetConfig(origins.healthy, 'healthy'),
    ],
  };
  const monitor = createMonitor(config, { logger: createLogger({ level: 'silent' }) });
  try {
    await monitor.runOnce();
    const recent = monitor.history.recent();
    const faulty = recent.find((e) => e.target === 'faulty' && e.endpoint === 'clients' && e.check === 'read');
    if (!faulty) throw new Error('the faulty target was not probed');
    return {
      faulty,
      healthy: recent.filter((e) => e.target === 'healthy'),
      healthyPlanned: monitor.plan().filter((p) => p.target === 'healthy').length,
    };
  } finally {
    await monitor.stop();
  }
}
