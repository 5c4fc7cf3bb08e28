/**
 * Running a monitor as a process: start the HTTP surface and the schedule, reload on SIGHUP,
 * stop cleanly when the command's signal fires. Shared by `serve` and `demo`.
 */
import type { Logger } from 'pino';
import { type ConfigResult, httpSettings } from './config/types.js';
import { unprotectedListen } from './http/auth.js';
import { type MonitorServer, createMonitorServer } from './http/server.js';
import type { Monitor } from './service.js';

type Listen = { readonly host: string; readonly port: number };

export function parseListen(text: string): { ok: true; listen: Listen } | { ok: false; message: string } {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(text.trim());
  const port = Number(match?.[3]);
  if (!match || port > 65535) return { ok: false, message: `--listen must be HOST:PORT such as 127.0.0.1:9464, got "${text}"` };
  return { ok: true, listen: { host: match[1] ?? match[2] ?? '127.0.0.1', port } };
}

/** `unprotected`: a config problem (exit 2); `listen`: the machine's state, such as a busy port (exit 1). */
type Serving =
  | { readonly ok: true; readonly server: MonitorServer }
  | { readonly ok: false; readonly reason: 'unprotected' | 'listen'; readonly message: string };

/**
 * A reload must not take the token away from a monitor that listens beyond loopback: the new
 * config is refused like any invalid one, and the old one keeps running.
 */
export function guardReload(listen: Listen, next: ConfigResult): ConfigResult {
  if (!next.ok) return next;
  const problem = unprotectedListen(listen.host, listen.port, httpSettings(next.config));
  return problem ? { ok: false, issues: [{ path: 'http.token', message: problem }] } : next;
}

/** Starts the server and the monitor; a port that cannot be bound is a result, not a crash. */
export async function startServing(monitor: Monitor, listen: Listen, logger: Logger): Promise<Serving> {
  const unprotected = unprotectedListen(listen.host, listen.port, httpSettings(monitor.config()));
  if (unprotected) return { ok: false, reason: 'unprotected', message: unprotected };
  let server: MonitorServer;
  try {
    server = await createMonitorServer(monitor, { host: listen.host, port: listen.port, logger });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const why = typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      reason: 'listen',
      message: `cannot listen on ${listen.host}:${listen.port} (${why}); choose another address with --listen HOST:PORT (port 0 picks a free one)`,
    };
  }
  await monitor.start();
  return { ok: true, server };
}

/**
 * Holds a SIGHUP that arrives while the process starts (config read, port bound): without a
 * listener Node's default action ends the process, and `systemctl reload` right after `start`
 * would kill the monitor. The held signal becomes one reload once serving begins.
 */
export function holdStartupHangups(): { release(): boolean } {
  let seen = false;
  const hold = (): void => {
    seen = true;
  };
  process.on('SIGHUP', hold);
  return {
    release() {
      process.off('SIGHUP', hold);
      return seen;
    },
  };
}

/** Waits for the abort signal (SIGINT/SIGTERM), reloading on SIGHUP meanwhile, then stops. */
export async function serveUntil(
  signal: AbortSignal,
  monitor: Monitor,
  server: MonitorServer,
  logger: Logger,
  options: { readonly startupHangups?: { release(): boolean } } = {},
): Promise<void> {
  const onHup = (): void => {
    logger.info('SIGHUP: reloading config');
    // A signal handler's rejection would be unhandled and end the process the reload was for.
    monitor.reload().catch((error: unknown) => {
      logger.error({ err: error instanceof Error ? error.message : String(error) }, 'SIGHUP: config reload failed');
    });
  };
  process.on('SIGHUP', onHup);
  // Released only once onHup listens: were SIGHUP's listeners ever zero, Node would stop its
  // signal watcher and drop a signal already caught but not yet dispatched (one sent right
  // after the status line was lost that way).
  if (options.startupHangups?.release()) onHup();
  try {
    if (!signal.aborted) await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    logger.info('stopping');
  } finally {
    process.off('SIGHUP', onHup);
    await server.close();
    await monitor.stop();
  }
}
