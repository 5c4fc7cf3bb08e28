/**
 * The peer: Debian's prometheus-blackbox-exporter with one http module equivalent to our
 * monitor's read probe (GET, the same auth header, 200 expected, body must show the success
 * envelope). The key lives only in the config FILE (mode 0600 in a private temp dir), never
 * in argv or a URL.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import YAML from 'yaml';
import { type AuthScheme, authHeader } from '../../api/contract/index.js';
import { type ChildProgram, childEnv, startProgram } from './child.js';
import { freePort } from './port.js';
import { waitForOk } from './wait-http.js';

export const BLACKBOX_BIN = '/usr/bin/prometheus-blackbox-exporter';
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

/** `probe_success 1` in a /probe answer. */
export function probeSucceeded(body: string): boolean {
  return /^probe_success 1$/m.test(body);
}

export interface RunningBlackbox {
  readonly program: ChildProgram;
  readonly origin: string;
  /** One /probe call, as Prometheus would make it; true when probe_success is 1. */
  probe(targetUrl: string): Promise<boolean>;
  close(): Promise<void>;
}

export async function startBlackbox(dir: string, key: string, scheme: AuthScheme, timeoutMs: number): Promise<RunningBlackbox> {
  const file = join(dir, 'blackbox.yml');
  await writeFile(file, blackboxConfigYaml(key, scheme, timeoutMs), { mode: 0o600 });
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const program = startProgram(
    BLACKBOX_BIN,
    [`--config.file=${file}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    childEnv(),
  );
  try {
    await waitForOk(`${origin}/-/healthy`, 10_000, program.alive);
  } catch (error) {
    await program.stop();
    throw new Error(`blackbox_exporter did not start: ${(error as Error).message}\n${program.tail()}`);
  }
  // Prometheus keeps its scrape connections open; so does this driver.
  const agent = new Agent({ connections: 64, keepAliveTimeout: 30_000 });
  return {
    program,
    origin,
    async probe(targetUrl) {
      const query = new URLSearchParams({ module: BLACKBOX_MODULE, target: targetUrl });
      const res = await request(`${origin}/probe?${query.toString()}`, { dispatcher: agent });
      const body = await res.body.text();
      return res.statusCode === 200 && probeSucceeded(body);
    },
    async close() {
      await agent.close();
      await program.stop();
    },
  };
}
