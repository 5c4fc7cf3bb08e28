/**
 * `repairmon check-config --config FILE [--connect]`: validate a monitor config without starting
 * anything; print what it would probe, warnings (5-field schedules, a schedule the probes
 * cannot keep up with) and the load; with --connect, try each target once.
 */
import { type Command, UsageError, stringValue } from '../command.js';
import { configWarnings, loadLine } from '../../monitor/config/advice.js';
import { connectTarget, formatConnect } from '../../monitor/config/connect.js';
import { loadConfigFile } from '../../monitor/config/load.js';
import { configSummary } from '../../monitor/config/summary.js';
import { formatIssues } from '../../monitor/config/types.js';

const checkConfig: Command = {
  name: 'check-config',
  summary: 'validate a monitor config file (exit 0 valid, 2 invalid, 1 a target does not answer with --connect) and print what it would probe',
  options: {
    config: { type: 'string', description: 'monitor YAML config', valueName: 'FILE' },
    connect: { type: 'boolean', description: 'also try each target once: GET /docs and one keyed read per key (5 s timeout, no retries)' },
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
    const warnings = configWarnings(config);
    const advice = warnings.length > 0 ? `${warnings.length} warning(s):\n${formatIssues(warnings)}\n` : '';
    ctx.stdout.write(`${configSummary(config)}${loadLine(config)}\n${advice}`);
    if (ctx.values['connect'] !== true) return 0;
    const reports = await Promise.all(config.targets.map((t) => connectTarget(t)));
    ctx.stdout.write(formatConnect(reports));
    return reports.every((r) => r.answersAsApi) ? 0 : 1;
  },
};

export default checkConfig;
