/** `repairmon check-config --config FILE`: validate a monitor config without starting anything. */
import { type Command, UsageError, stringValue } from '../command.js';
import { loadConfigFile } from '../../monitor/config/load.js';
import { configSummary } from '../../monitor/config/summary.js';
import { formatIssues } from '../../monitor/config/types.js';

const checkConfig: Command = {
  name: 'check-config',
  summary: 'validate a monitor config file (exit 0 valid, 2 invalid) and print what it would probe',
  options: {
    config: { type: 'string', description: 'monitor YAML config', valueName: 'FILE' },
  },
  async run(ctx) {
    const file = stringValue(ctx.values, 'config');
    if (file === undefined) throw new UsageError('--config FILE is required');
    const result = loadConfigFile(file, ctx.env);
    if (!result.ok) {
      ctx.stderr.write(`${file}: ${result.issues.length} problem(s):\n${formatIssues(result.issues)}\n`);
      return 2;
    }
    ctx.stdout.write(configSummary(result.config));
    return 0;
  },
};

export default checkConfig;
