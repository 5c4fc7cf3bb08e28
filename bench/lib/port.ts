/**
 * A free TCP port on 127.0.0.1, for programs (Prometheus, Alertmanager, tinyproxy,
 * blackbox_exporter) that cannot listen on port 0 and tell us which port they got.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Chosen below the kernel's ephemeral range: between our check and the program's own bind,
 * `listen(0)` and outgoing connections anywhere on the machine only take ephemeral ports, so none
 * can take this one (a just-freed ephemeral port was taken that way on CI). It also holds for a
 * program stopped and started again on the same port, as the alert stack's second monitor is.
 */
export async function freePort(): Promise<number> {
  let low = 32_768;
  try {
    low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || low;
  } catch {
    // Not Linux: the IANA ephemeral range starts higher still.
  }
  for (let tries = 0; tries < 50; tries++) {
    const port = 10_000 + Math.floor(Math.random() * Math.max(1, low - 10_000));
    if (await bindable(port)) return port;
  }
  return ephemeralPort();
}

async function bindable(port: number): Promise<boolean> {
  const server = createServer();
  const bound = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (bound) await new Promise<void>((resolve) => server.close(() => resolve()));
  return bound;
}

async function ephemeralPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (port === 0) throw new Error('could not get a free port on 127.0.0.1');
  return port;
}
