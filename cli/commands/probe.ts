/**
 * `repairmon probe`: support's one-off diagnosis of a customer's key, running the spec's
 * debugging checklist. Exit 0 all good, 1 a problem (or not fully checked), 2 bad usage.
 */
import { AUTH_SCHEMES } from '../../api/contract/index.js';
import { PLATFORM_PATHS } from '../../api/contract/readings.js';
import { redactSecrets } from '../../api/client/single-attempt.js';
import { type Command, type CommandContext, UsageError, choiceValue, numberValue, stringValue } from '../command.js';
import { keyFromFlags, keyOptions, platformPathsFlag, proxyFromFlags, refuseKeyFlag, tenantFlag } from '../key-flags.js';
import {
  DEFAULT_MAX_WAIT_S,
  DEFAULT_WIDTH,
  MAX_PLATFORM_CALLS,
  REQUEST_BUDGET,
  createProgress,
  parseTarget,
  renderDiagnosisJson,
  renderDiagnosisTable,
  runDiagnosis,
} from '../../diagnose/index.js';

const DEFAULT_TIMEOUT_S = 10;

function targetFlag(values: CommandContext['values']): ReturnType<typeof parseTarget> & { ok: true } {
  const raw = stringValue(values, 'base-url');
  if (raw === undefined)
    throw new UsageError('--base-url is required (the address ending in /api/v1, or the exact URL the customer calls)');
  const parsed = parseTarget(raw);
  if (!parsed.ok) throw new UsageError(`--base-url ${parsed.reason}`);
  return parsed;
}

const command: Command = {
  name: 'probe',
  docs: 'docs/support.md',
  options: {
    'base-url': {
      type: 'string',
      valueName: 'URL',
      description: 'the API address ending in /api/v1 (a full /tenants/<slug>/... URL also works)',
    },
    tenant: { type: 'string', valueName: 'SLUG', description: 'the tenant the key should belong to' },
    auth: { type: 'string', valueName: 'bearer|x-api-key', description: 'how the customer sends the key', default: 'bearer' },
    ...keyOptions(false),
    json: { type: 'boolean', description: 'print one JSON document instead of the table' },
    wide: {
      type: 'boolean',
      description: `print every column (latency, request ids, server messages) unwrapped; without it the table fits the terminal, or ${DEFAULT_WIDTH} columns when stdout is not one`,
    },
    timeout: {
      type: 'string',
      valueName: 'S',
      description: `seconds per request. A run sends at most ${REQUEST_BUDGET} requests, so it ends within ${REQUEST_BUDGET} x S plus --max-wait`,
      default: String(DEFAULT_TIMEOUT_S),
    },
    'max-wait': {
      type: 'string',
      valueName: 'S',
      description:
        `on a 429, wait as the server asks (Retry-After or a rate-limit reset header) and retry that call once if the run's waits stay within S seconds; ` +
        'a longer wait, or none named, stops the run and reports it (0: never wait)',
      default: String(DEFAULT_MAX_WAIT_S),
    },
    'platform-path': {
      type: 'string',
      valueName: 'PATH',
      multiple: true,
      description: `sub-path under /platform/ that tells a platform key from a tenant key (the first ${MAX_PLATFORM_CALLS} are tried in order until one answers); default: those /docs lists, else none (${PLATFORM_PATHS.reason})`,
    },
  },
  async run(ctx) {
    refuseKeyFlag(ctx.values, 'probe');
    const { target } = targetFlag(ctx.values);
    const tenant = tenantFlag(ctx.values);
    const auth = choiceValue(ctx.values, 'auth', AUTH_SCHEMES) ?? 'bearer';
    const timeoutS = numberValue(ctx.values, 'timeout', { min: 0.1, max: 300 }) ?? DEFAULT_TIMEOUT_S;
    const maxWaitS = numberValue(ctx.values, 'max-wait', { min: 0, max: 300 }) ?? DEFAULT_MAX_WAIT_S;
    const paths = platformPathsFlag(ctx.values);
    const key = (await keyFromFlags(ctx, true))!;
    const proxy = proxyFromFlags(ctx, target.baseUrl, 'probe');
    const progress = createProgress(ctx.stderr);
    const report = await runDiagnosis({
      target,
      key,
      auth,
      tenant,
      timeoutS,
      maxWaitS,
      platformPaths: paths,
      proxy,
      env: ctx.env,
      signal: ctx.signal,
      onProgress: (d, l) => progress.update(d, l),
    });
    progress.clear();
    const stdout = ctx.stdout as typeof ctx.stdout & { isTTY?: boolean; columns?: number };
    const width = ctx.values['wide'] === true ? 'wide' : stdout.isTTY === true && stdout.columns ? stdout.columns : DEFAULT_WIDTH;
    // Last net: the report holds only the key's hint, but a server could echo the key back.
    ctx.stdout.write(redactSecrets(ctx.values['json'] === true ? renderDiagnosisJson(report) : renderDiagnosisTable(report, width), [key]));
    return report.exitCode;
  },
};

export default command;
