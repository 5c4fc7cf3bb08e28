/** Where the ops kit lives, and the real tools the deploy tests drive. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { toolAvailable } from '../../helpers/tools.js';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const DEPLOY = `${ROOT}deploy/`;
export const PROMETHEUS_DIR = `${DEPLOY}prometheus/`;
export const RULE_FILES = [`${PROMETHEUS_DIR}recording-rules.yml`, `${PROMETHEUS_DIR}alerting-rules.yml`];
export const DASHBOARD = `${DEPLOY}grafana/repairmon-dashboard.json`;

export const PROMTOOL = '/usr/bin/promtool';
export const PROMETHEUS = '/usr/bin/prometheus';
export const SYSTEMD_ANALYZE = '/usr/bin/systemd-analyze';

/** Says loudly, once, that a check did not run; the CI installs these tools, so it should not happen there. */
export function toolPresent(path: string, what: string): boolean {
  return toolAvailable(existsSync(path), what, `${path} (Debian: apt-get install prometheus / systemd)`);
}
