/**
 * The real monitor probing the real sandbox, in this process: the sandbox's demo keys, a
 * one-second schedule, and faults chosen so that most series the ops kit reads have data
 * (a tenant-isolation breach, 503s, a rate-limit storm, a revoked key, a key without the logs
 * scope whose config says so),
 * plus a second target inside a maintenance window, whose ticks are all skipped, and a third
 * served over TLS (an openssl-made 2-day certificate in front of the same sandbox) so the
 * certificate-expiry gauge is in the scrape.
 */
import { createLogger } from '../../../lib/logger.js';
import { DEFAULT_HTTP_SETTINGS, type MonitorTarget, configKeys } from '../../../monitor/config/types.js';
import { demoConfig } from '../../../monitor/demo-config.js';
import { type MonitorServer, createMonitorServer } from '../../../monitor/http/server.js';
import { createMonitor } from '../../../monitor/service.js';
import { startSandbox } from '../../../sandbox/index.js';
import { type TlsFront, makeCertificate, opensslPresent, startTlsFront } from '../../helpers/tls.js';

export const FIXTURE_FAULTS =
  'isolation-breach@/tenants/*/clients;status:503@/tenants/*/bikes%0.5;rate-limit-storm:1@/tenants/cykl-gdansk/*';
export const FIXTURE_ALIASES = ['platform-test', 'nowak-test', 'kowalski-test', 'gdansk-test', 'nowak-revoked-test', 'nowak-nologs-test'];
/** The key without the logs scope, configured as such (`expect: { logs: insufficient_scope }`): green, no ticket. */
export const FIXTURE_NARROW_ALIAS = 'nowak-nologs-test';

function inMaintenance(target: MonitorTarget): MonitorTarget {
  const now = Date.now();
  const window = { kind: 'fixed' as const, startMs: now - 3_600_000, endMs: now + 3_600_000, reason: 'deploy test window' };
  return { ...target, name: `${target.name}-maintenance`, keys: target.keys.slice(0, 1), maintenance: [window] };
}

/** The alias probed over TLS: one tenant key, canaries off, to keep the fixture's load small. */
export const FIXTURE_TLS_ALIAS = 'kowalski-test';
/** Days the fixture's certificate is valid: under 3, so RepairmonTLSCertificateExpiring goes pending. */
export const FIXTURE_CERT_DAYS = 2;

function overTls(target: MonitorTarget, front: TlsFront, ca: { cert: string; certFile: string }): MonitorTarget {
  const canaries = Object.fromEntries(Object.keys(target.canaries).map((n) => [n, false])) as MonitorTarget['canaries'];
  return {
    ...target,
    name: `${target.name}-tls`,
    baseUrl: front.baseUrl,
    keys: target.keys.filter((k) => k.alias === FIXTURE_TLS_ALIAS),
    canaries,
    tls: { ca: ca.cert, caFile: ca.certFile, serverName: undefined },
  };
}

export interface MonitoredSandbox {
  /** http://127.0.0.1:PORT of the monitor. */
  readonly url: string;
  /** host:port of the monitor, for a scrape config. */
  readonly address: string;
  /** False when openssl is missing: no TLS target, so no certificate series. */
  readonly tls: boolean;
  close(): Promise<void>;
}

export async function startMonitoredSandbox(): Promise<MonitoredSandbox> {
  const sandbox = await startSandbox({ faults: FIXTURE_FAULTS, rateLimit: '10000/1m' });
  const demo = demoConfig(sandbox, {
    aliases: FIXTURE_ALIASES,
    schedule: '* * * * * *',
    timeoutMs: 800,
    expect: { [FIXTURE_NARROW_ALIAS]: { logs: 'insufficient_scope' } },
  });
  const cert = opensslPresent('the TLS target of the ops-kit fixture (the certificate panel and alert get no data)')
    ? makeCertificate({ commonName: '127.0.0.1', altNames: ['IP:127.0.0.1'], days: FIXTURE_CERT_DAYS })
    : undefined;
  const front = cert ? await startTlsFront(cert, sandbox.port) : undefined;
  const tlsTargets = cert && front ? demo.targets.map((t) => overTls(t, front, cert)) : [];
  // On-demand probes are paced per key; the blackbox-style job scrapes /probe every 2 s here.
  const http = { ...DEFAULT_HTTP_SETTINGS, onDemandIntervalMs: 1_000 };
  const config = { ...demo, http, targets: [...demo.targets, ...demo.targets.map(inMaintenance), ...tlsTargets] };
  const keys = configKeys(config);
  const logger = createLogger({ level: 'silent', secrets: () => keys });
  const monitor = createMonitor(config, { logger, roundOnStart: true });
  let server: MonitorServer | undefined;
  try {
    server = await createMonitorServer(monitor, { host: '127.0.0.1', port: 0, logger });
    await monitor.start();
    const running = server;
    return {
      url: running.url,
      address: running.url.replace(/^http:\/\//, ''),
      tls: front !== undefined,
      async close() {
        await running.close();
        await monitor.stop();
        await front?.close();
        await sandbox.close();
        cert?.remove();
      },
    };
  } catch (error) {
    await server?.close();
    await monitor.stop();
    await front?.close();
    await sandbox.close();
    cert?.remove();
    throw error;
  }
}

/** The metric names of a text exposition, as they appear on sample lines (histograms as _bucket, _sum, _count). */
export function exposedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const line of exposition.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([A-Za-z_:][A-Za-z0-9_:]*)/.exec(line);
    if (match?.[1]) names.add(match[1]);
  }
  return names;
}
