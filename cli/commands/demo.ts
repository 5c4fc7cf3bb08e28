/**
 * `repairmon demo` (what `npm start` runs): the embedded sandbox plus the monitor probing it
 * with the sandbox's demo keys. The keys go from the sandbox into ApiKey holders in memory;
 * only aliases are ever printed.
 */
import { type Command, UsageError, choiceValue, stringValue } from '../command.js';
import { createLogger, packageVersion } from '../../lib/index.js';
import { configKeys, createMonitor, cronProblem, demoConfig, parseListen, serveUntil, startServing } from '../../monitor/index.js';
import { isSandboxConfigError, startSandbox } from '../../sandbox/index.js';
import { faultCommandLine } from './sandbox-fault.js';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'silent'] as const;

const demo: Command = {
  name: 'demo',
  summary: 'run the embedded sandbox and the monitor probing it (what `npm start` runs)',
  docs: 'docs/monitor.md',
  options: {
    listen: { type: 'string', description: 'address of the status page and /metrics', valueName: 'HOST:PORT', default: '127.0.0.1:9464' },
    faults: { type: 'string', description: 'sandbox fault spec, e.g. "latency:300@/tenants/*/bikes%0.3"', valueName: 'SPEC' },
    schedule: { type: 'string', description: 'probe schedule (node-cron, UTC)', valueName: 'CRON', default: '*/15 * * * * *' },
    'log-level': { type: 'string', description: `one of ${LEVELS.join(', ')}`, valueName: 'LEVEL', default: 'warn' },
  },
  async run(ctx) {
    const listen = parseListen(stringValue(ctx.values, 'listen') ?? '');
    if (!listen.ok) throw new UsageError(listen.message);
    const level = choiceValue(ctx.values, 'log-level', LEVELS) ?? 'warn';
    const schedule = stringValue(ctx.values, 'schedule') ?? '*/15 * * * * *';
    // Checked before anything starts: node-cron would otherwise throw from deep in the monitor.
    const scheduleProblem = cronProblem(schedule);
    if (scheduleProblem) throw new UsageError(`--schedule: invalid cron expression "${schedule}": ${scheduleProblem}`);
    const sandbox = await startSandbox({ faults: stringValue(ctx.values, 'faults') ?? '', rateLimit: '600/1m' }).catch((error: unknown) => {
      // Name the flag, as `repairmon sandbox --faults` does.
      if (isSandboxConfigError(error)) throw new UsageError(`--${error.option}: ${error.message}`);
      throw error;
    });
    const config = demoConfig(sandbox, { schedule, timeoutMs: 5_000 });
    const keys = configKeys(config);
    const logger = createLogger({ level, name: 'repairmon-demo', secrets: () => keys });
    const monitor = createMonitor(config, { logger, version: packageVersion(), roundOnStart: true });
    try {
      const serving = await startServing(monitor, listen.listen, logger);
      if (!serving.ok) {
        ctx.stderr.write(`repairmon demo: ${serving.message}\n`);
        return serving.reason === 'unprotected' ? 2 : 1;
      }
      const server = serving.server;
      const aliases = config.targets.flatMap((t) => t.keys.map((k) => k.alias)).join(', ');
      ctx.stdout.write(
        [
          'repairmon demo: monitoring the embedded sandbox',
          `  sandbox      ${sandbox.baseUrl}`,
          `  keys         ${aliases}`,
          `  status page  ${server.url}/`,
          `  metrics      ${server.url}/metrics`,
          `  probes       ${server.url}/probes`,
          `  faults       ${faultCommandLine(sandbox.baseUrl, sandbox.control.token)}`,
          'Press Ctrl+C to stop.',
          '',
        ].join('\n'),
      );
      await serveUntil(ctx.signal, monitor, server, logger);
    } finally {
      await monitor.stop();
      await sandbox.close();
    }
    return 0;
  },
};

export default demo;
