/**
 * The peer: Debian's prometheus-blackbox-exporter with one http module equivalent to our
 * monitor's read probe (GET, the same auth header, 200 expected, body must show the success
 * envelope), and the "Prometheus scraping /probe" that drives it at a steady rate. The key
 * lives only in the config FILE (mode 0600 in a private temp dir), never in argv or a URL.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import YAML from 'yaml';
import { type AuthScheme, authHeader } from '../../api/contract/index.js';
import { childEnv, startReadyProgram } from './child.js';
import { freePort } from './port.js';

export const BLACKBOX_MODULE = 'repair_read';
/** The envelope's success flag, as our monitor's classifier requires it. */
export const OK_BODY_REGEXP = '"ok":\\s*true';

export function blackboxConfigYaml(key: string, scheme: AuthScheme, timeoutMs: number): string {
  const header = authHeader(scheme, key);
  return YAML.stringify({
    modules: {
      [BLACKBOX_MODULE]: {
        prober: 'http',
        timeout: `${timeoutMs}ms`,
        http: {
          method: 'GET',
          valid_status_codes: [200],
          headers: { [header.name]: header.value, accept: 'application/json' },
          fail_if_body_not_matches_regexp: [OK_BODY_REGEXP],
          preferred_ip_protocol: 'ip4',
          ip_protocol_fallback: false,
        },
      },
    },
  });
}

export async function startBlackbox(dir: string, key: string, scheme: AuthScheme, timeoutMs: number) {
  const file = join(dir, 'blackbox.yml');
  await writeFile(file, blackboxConfigYaml(key, scheme, timeoutMs), { mode: 0o600 });
  const origin = `http://127.0.0.1:${await freePort()}`;
  const args = [`--config.file=${file}`, `--web.listen-address=${origin.slice('http://'.length)}`, '--log.level=warn'];
  const program = await startReadyProgram(
    'blackbox_exporter',
    ['/usr/bin/prometheus-blackbox-exporter', ...args],
    childEnv(),
    `${origin}/-/healthy`,
    10_000,
  );
  // Prometheus keeps its scrape connections open; so does this driver.
  const agent = new Agent({ connections: 64, keepAliveTimeout: 30_000 });
  return {
    program,
    /** One /probe call, as Prometheus would make it. */
    async probe(targetUrl: string): Promise<void> {
      const query = new URLSearchParams({ module: BLACKBOX_MODULE, target: targetUrl });
      await (await request(`${origin}/probe?${query.toString()}`, { dispatcher: agent })).body.dump();
    },
    async close() {
      await agent.close();
      await program.stop();
    },
  };
}

/** How many firings are due after `elapsedMs` at `perSecond`, counting the one at t = 0. */
export function dueCount(elapsedMs: number, perSecond: number): number {
  return elapsedMs < 0 ? 0 : Math.floor((elapsedMs * perSecond) / 1000) + 1;
}

/**
 * Fires `fire` at `perSecond` until stopped: each firing is due at start + i/R, and late ones
 * catch up in the next 20 ms slice rather than being dropped, so the count matches the elapsed
 * time. A failed firing is the probe's business (counted at the sandbox); in-flight ones are
 * awaited on stop.
 */
export function startRateDriver(perSecond: number, fire: () => Promise<unknown>, now = () => performance.now()) {
  if (!(perSecond > 0)) throw new Error(`rate must be above 0 per second, got ${perSecond}`);
  const started = now();
  let fired = 0;
  const inFlight = new Set<Promise<unknown>>();
  const launch = (): void => {
    fired += 1;
    const p: Promise<unknown> = fire()
      .catch(() => undefined)
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  const timer = setInterval(() => {
    while (fired < dueCount(now() - started, perSecond)) launch();
  }, 20);
  launch();
  return {
    async stop() {
      clearInterval(timer);
      await Promise.allSettled([...inFlight]);
    },
  };
}
