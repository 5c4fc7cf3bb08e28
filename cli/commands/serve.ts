/** `repairmon serve`: the monitor service (probes on a schedule, Prometheus metrics, status page). */
import { type Command, UsageError, choiceValue, stringValue } from '../command.js';
import { createLogger, packageVersion } from '../../lib/index.js';
import {
  NO_SHARD,
  configSecrets,
  type ProbeTracer,
  TracingUnavailableError,
  createMonitor,
  createProbeTracer,
  formatIssues,
  formatShard,
  guardReload,
  holdStartupHangups,
  loadConfigFile,
  parseListen,
  parseShard,
  serveUntil,
  startServing,
} from '../../monitor/index.js';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const serve: Command = {
  name: 'serve',
  docs: 'docs/monitor.md',
  options: {
    config: { type: 'string', description: 'monitor YAML config', valueName: 'FILE' },
    listen: { type: 'string', description: 'address of /metrics and the status page', valueName: 'HOST:PORT', default: '127.0.0.1:9464' },
    shard: { type: 'string', description: 'run only this shard of the probes (0-based i of N)', valueName: 'i/N' },
    'log-level': { type: 'string', description: `one of ${LEVELS.join(', ')}`, valueName: 'LEVEL', default: 'info' },
  },
  async run(ctx) {
    const file = stringValue(ctx.values, 'config');
    if (file === undefined) throw new UsageError('--config FILE is required (try `repairmon demo` to run against the embedded sandbox)');
    const listen = parseListen(stringValue(ctx.values, 'listen') ?? '');
    if (!listen.ok) throw new UsageError(listen.message);
    const shardText = stringValue(ctx.values, 'shard');
    const shard = shardText === undefined ? { ok: true as const, shard: NO_SHARD } : parseShard(shardText);
    if (!shard.ok) throw new UsageError(shard.message);
    const level = choiceValue(ctx.values, 'log-level', LEVELS) ?? 'info';
    const hangups = holdStartupHangups();
    const initial = loadConfigFile(file, ctx.env);
    if (!initial.ok) {
      hangups.release();
      ctx.stderr.write(`${file}: ${initial.issues.length} problem(s):\n${formatIssues(initial.issues)}\n`);
      return 2;
    }
    let keys = configSecrets(initial.config);
    const logger = createLogger({ level, name: 'repairmon', secrets: () => keys });
    const version = packageVersion();
    let tracer: ProbeTracer | undefined;
    try {
      tracer = await createProbeTracer(ctx.env, version);
    } catch (error) {
      if (!(error instanceof TracingUnavailableError)) throw error;
      hangups.release();
      ctx.stderr.write(`repairmon serve: ${error.message}\n`);
      return 2;
    }
    const monitor = createMonitor(initial.config, {
      logger,
      shard: shard.shard,
      version,
      roundOnStart: true,
      env: ctx.env,
      tracer,
      load: () => {
        const next = loadConfigFile(file, ctx.env);
        // Scrub the new keys from the moment they are read, and the running ones until replaced.
        if (next.ok) keys = [...configSecrets(monitor.config()), ...configSecrets(next.config)];
        return guardReload(listen.listen, next);
      },
    });
    const serving = await startServing(monitor, listen.listen, logger);
    if (!serving.ok) {
      hangups.release();
      ctx.stderr.write(`repairmon serve: ${serving.message}\n`);
      await monitor.stop();
      await tracer?.shutdown();
      return serving.reason === 'unprotected' ? 2 : 1;
    }
    const server = serving.server;
    ctx.stdout.write(`repairmon serve: status ${server.url}/  metrics ${server.url}/metrics  shard ${formatShard(shard.shard)}\n`);
    await serveUntil(ctx.signal, monitor, server, logger, { startupHangups: hangups });
    // The spans of the last probes are still buffered.
    await tracer?.shutdown();
    return 0;
  },
};

export default serve;
