/** The built CLI, checked to hold the discover command (the runner is the probe tests'). */
import { existsSync } from 'node:fs';
import { ROOT } from '../diagnose/helpers.js';

export { type CliRun, closedPort, runCli } from '../diagnose/helpers.js';

export function assertDiscoverBuilt(): void {
  if (!existsSync(`${ROOT}dist/cli/commands/discover.js`)) throw new Error('dist/ has no discover command: run `npm run build` first');
}
