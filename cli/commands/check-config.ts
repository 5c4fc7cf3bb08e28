/**
 * `repairmon check-config --config FILE [--connect]`: validate a monitor config without starting
 * anything; print what it would probe, warnings (5-field schedules, a schedule the probes
 * cannot keep up with, a plain-http target through a proxy) and the load; with --connect, try each target once.
 */
import { type Command, UsageError, stringValue } from '../command.js';
import {
  buildPlan,
  configSummary,
  configWarnings,
  connectTarget,
  formatConnect,
  formatIssues,
  keyFaults,
  loadConfigFile,
} from '../../monitor/index.js';

const checkConfig: Command = {
  name: 'check-config',
  summary:
    'validate a monitor config file (exit 0 valid, 2 invalid; with --connect 1 when a target does not answer or refuses a key) and print what it would probe',
  docs: 'docs/monitor.md#check-config',
  // Nothing to close: SIGINT/SIGTERM end it at once, also mid-parse of a file of 200 000 keys.
  trapsSignals: false,
  options: {
    config: { type: 'string', description: 'monitor YAML config', valueName: 'FILE' },
    connect: {
      type: 'boolean',
      description: "also try each target once: GET /docs and one keyed read per key (timeout: the target's, at most 5 s; no retries)",
    },
  },
  async run(ctx) {
    const file = stringValue(ctx.values, 'config');
    if (file === undefined) throw new UsageError('--config FILE is required');
    const result = loadConfigFile(file, ctx.env);
    if (!result.ok) {
      ctx.stderr.write(`${file}: ${result.issues.length} problem(s):\n${formatIssues(result.issues)}\n`);
      return 2;
    }
    const config = result.config;
    // One plan for the summary, the warnings and the series projection.
    const plan = buildPlan(config);
    const warnings = configWarnings(config, plan, ctx.env);
    const advice = warnings.length > 0 ? `${warnings.length} warning(s):\n${formatIssues(warnings)}\n` : '';
    ctx.stdout.write(`${configSummary(config, plan)}${advice}`);
    if (ctx.values['connect'] !== true) return 0;
    const reports = await Promise.all(config.targets.map((t) => connectTarget(t, { env: ctx.env })));
    ctx.stdout.write(formatConnect(reports));
    const faults = keyFaults(reports);
    if (faults.length > 0) ctx.stderr.write(`${faults.length} key(s) refused:\n${faults.map((f) => `  ${f}`).join('\n')}\n`);
    return reports.every((r) => r.answersAsApi) && faults.length === 0 ? 0 : 1;
  },
};

export default checkConfig;
