/**
 * `repairmon discover`: learns, with a few safe GETs, which reading of the spec's "not shown"
 * points a real API follows, before its monitor config is written. Exit 0 discovery ran
 * (whatever it found), 1 the host does not answer as API v1, 2 bad usage.
 */
import { AUTH_SCHEMES, checkBaseUrl, validateTenantSlug } from '../../api/contract/index.js';
import { type ApiKey, redactSecrets } from '../../api/client/index.js';
import { type Command, type CommandContext, UsageError, choiceValue, numberValue, stringValue } from '../command.js';
import { chooseKeySource, keyFlagsHint, readKey } from '../../diagnose/key-source.js';
import { createProgress } from '../../diagnose/progress.js';
import { renderMonitorConfig } from '../../discover/emit-config.js';
import { MAX_REQUESTS } from '../../discover/plan.js';
import { renderDiscoveryJson, renderDiscoveryTable } from '../../discover/render.js';
import { runDiscovery } from '../../discover/run.js';

const DEFAULT_TIMEOUT_S = 10;
const EMIT_CHOICES = ['monitor-config'] as const;

function baseUrlFlag(values: CommandContext['values']): string {
  const raw = stringValue(values, 'base-url');
  if (raw === undefined) throw new UsageError('--base-url is required (the API address ending in /api/v1)');
  const check = checkBaseUrl(raw);
  if (!check.ok) throw new UsageError(`--base-url ${check.reason}`);
  return `${check.url.origin}${check.url.pathname.replace(/\/+$/, '')}`;
}

function tenantFlag(values: CommandContext['values']): string | undefined {
  const tenant = stringValue(values, 'tenant');
  if (tenant === undefined) return undefined;
  const check = validateTenantSlug(tenant);
  if (!check.ok) throw new UsageError(`--tenant "${tenant}" ${check.reason}`);
  return tenant;
}

/** A key is optional here: without a key flag there is none, and no prompt. */
async function keyFlag(ctx: CommandContext): Promise<ApiKey | undefined> {
  const flags = { keyEnv: stringValue(ctx.values, 'key-env'), keyFile: stringValue(ctx.values, 'key-file'), keyStdin: ctx.values['key-stdin'] === true };
  if (flags.keyEnv === undefined && flags.keyFile === undefined && !flags.keyStdin) return undefined;
  const choice = chooseKeySource(flags, false);
  if (!choice.ok) throw new UsageError(choice.reason);
  const read = await readKey(choice.source, ctx);
  if (!read.ok) throw new UsageError(read.reason);
  return read.key;
}

const command: Command = {
  name: 'discover',
  summary: 'learn which reading of the spec a real API follows, with a few safe GET requests',
  options: {
    'base-url': { type: 'string', valueName: 'URL', description: 'the API address ending in /api/v1' },
    tenant: { type: 'string', valueName: 'SLUG', description: 'a tenant to read with the key (which resources, how a scope is refused)' },
    auth: { type: 'string', valueName: 'bearer|x-api-key', description: 'how to present the key', default: 'bearer' },
    'key-env': { type: 'string', valueName: 'VAR', description: 'optional: read the key from this environment variable' },
    'key-file': { type: 'string', valueName: 'PATH', description: 'optional: read the key from this file' },
    'key-stdin': { type: 'boolean', description: 'optional: read the key from stdin' },
    key: { type: 'string', valueName: 'VALUE', description: 'refused: a key on the command line leaks into ps and shell history' },
    json: { type: 'boolean', description: 'print one JSON document instead of the table' },
    emit: { type: 'string', valueName: 'monitor-config', description: "print only the YAML fields of a monitor target, with each reading's evidence" },
    timeout: { type: 'string', valueName: 'S', description: `seconds per request (at most ${MAX_REQUESTS} GETs, one at a time, no retries)`, default: String(DEFAULT_TIMEOUT_S) },
  },
  async run(ctx) {
    if (ctx.values['key'] !== undefined) {
      throw new UsageError(`--key is refused: a key on the command line shows in ps and shell history. Pass it with ${keyFlagsHint('discover')}`);
    }
    const baseUrl = baseUrlFlag(ctx.values);
    const tenant = tenantFlag(ctx.values);
    const auth = choiceValue(ctx.values, 'auth', AUTH_SCHEMES) ?? 'bearer';
    const timeoutS = numberValue(ctx.values, 'timeout', { min: 0.1, max: 300 }) ?? DEFAULT_TIMEOUT_S;
    const emit = choiceValue(ctx.values, 'emit', EMIT_CHOICES);
    if (emit !== undefined && ctx.values['json'] === true) throw new UsageError('give only one of --json and --emit');
    const key = await keyFlag(ctx);
    const progress = createProgress(ctx.stderr as typeof ctx.stderr & { isTTY?: boolean });
    const report = await runDiscovery({ baseUrl, key, auth, tenant, timeoutS, signal: ctx.signal, onProgress: (d, l) => progress.update(d, l) });
    progress.clear();
    // Last net: the report holds only the key's hint, but a server could echo the key back.
    const safe = (text: string): string => (key ? redactSecrets(text, [key]) : text);
    if (emit === 'monitor-config') {
      if (report.host.kind === 'not_api_v1') ctx.stderr.write(safe(`repairmon discover: no config emitted, the host does not answer as API v1: ${report.host.why}\n`));
      else ctx.stdout.write(safe(renderMonitorConfig(report)));
    } else {
      ctx.stdout.write(safe(ctx.values['json'] === true ? renderDiscoveryJson(report) : renderDiscoveryTable(report)));
    }
    return report.exitCode;
  },
};

export default command;
