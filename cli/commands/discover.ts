/**
 * `repairmon discover`: learns, with a few safe GETs, which reading of the spec's "not shown"
 * points a real API follows, before its monitor config is written. Exit 0 discovery ran
 * (whatever it found), 1 the host does not answer as API v1, 2 bad usage.
 */
import { AUTH_SCHEMES, checkBaseUrl } from '../../api/contract/index.js';
import { PLATFORM_PATHS } from '../../api/contract/readings.js';
import { redactSecrets } from '../../api/client/single-attempt.js';
import { type Command, type CommandContext, UsageError, choiceValue, numberValue, stringValue } from '../command.js';
import { keyFromFlags, keyOptions, platformPathsFlag, proxyFromFlags, refuseKeyFlag, tenantFlag } from '../key-flags.js';
import { MAX_PLATFORM_CALLS, createProgress } from '../../diagnose/index.js';
import { MAX_REQUESTS, renderDiscoveryJson, renderDiscoveryTable, renderMonitorConfig, runDiscovery } from '../../discover/index.js';

const DEFAULT_TIMEOUT_S = 10;
const EMIT_CHOICES = ['monitor-config'] as const;

function baseUrlFlag(values: CommandContext['values']): string {
  const raw = stringValue(values, 'base-url');
  if (raw === undefined) throw new UsageError('--base-url is required (the API address ending in /api/v1)');
  const check = checkBaseUrl(raw);
  if (!check.ok) throw new UsageError(`--base-url ${check.reason}`);
  return `${check.url.origin}${check.url.pathname.replace(/\/+$/, '')}`;
}

const command: Command = {
  name: 'discover',
  docs: 'docs/support.md',
  options: {
    'base-url': { type: 'string', valueName: 'URL', description: 'the API address ending in /api/v1' },
    tenant: { type: 'string', valueName: 'SLUG', description: 'a tenant to read with the key (which resources, how a scope is refused)' },
    auth: { type: 'string', valueName: 'bearer|x-api-key', description: 'how to present the key', default: 'bearer' },
    ...keyOptions(true),
    json: { type: 'boolean', description: 'print one JSON document instead of the table' },
    emit: {
      type: 'string',
      valueName: 'monitor-config',
      description: "print only the YAML fields of a monitor target, with each reading's evidence",
    },
    timeout: {
      type: 'string',
      valueName: 'S',
      description: `seconds per request (at most ${MAX_REQUESTS} GETs, one at a time, no retries)`,
      default: String(DEFAULT_TIMEOUT_S),
    },
    'platform-path': {
      type: 'string',
      valueName: 'PATH',
      multiple: true,
      description: `sub-path under /platform/ to ask with the key (the first ${MAX_PLATFORM_CALLS}, tenant listings first); default: those /docs lists, else none (${PLATFORM_PATHS.reason})`,
    },
  },
  async run(ctx) {
    refuseKeyFlag(ctx.values, 'discover');
    const baseUrl = baseUrlFlag(ctx.values);
    const tenant = tenantFlag(ctx.values);
    const auth = choiceValue(ctx.values, 'auth', AUTH_SCHEMES) ?? 'bearer';
    const timeoutS = numberValue(ctx.values, 'timeout', { min: 0.1, max: 300 }) ?? DEFAULT_TIMEOUT_S;
    const platformPaths = platformPathsFlag(ctx.values);
    const emit = choiceValue(ctx.values, 'emit', EMIT_CHOICES);
    if (emit !== undefined && ctx.values['json'] === true) throw new UsageError('give only one of --json and --emit');
    const key = await keyFromFlags(ctx, false);
    const proxy = proxyFromFlags(ctx, baseUrl, 'discover');
    const progress = createProgress(ctx.stderr);
    const report = await runDiscovery({
      baseUrl,
      key,
      auth,
      tenant,
      platformPaths,
      timeoutS,
      proxy,
      env: ctx.env,
      signal: ctx.signal,
      onProgress: (d, l) => progress.update(d, l),
    });
    progress.clear();
    // Last net: the report holds only the key's hint, but a server could echo the key back.
    const safe = (text: string): string => (key ? redactSecrets(text, [key]) : text);
    if (emit === 'monitor-config') {
      if (report.host.kind === 'not_api_v1')
        ctx.stderr.write(safe(`repairmon discover: no config emitted, the host does not answer as API v1: ${report.host.why}\n`));
      else ctx.stdout.write(safe(renderMonitorConfig(report)));
    } else {
      ctx.stdout.write(safe(ctx.values['json'] === true ? renderDiscoveryJson(report) : renderDiscoveryTable(report)));
    }
    return report.exitCode;
  },
};

export default command;
