/**
 * `repairmon sandbox`: the API v1 sandbox until SIGINT/SIGTERM. Prints the base URL and the demo
 * keys with a curl line per auth form, or with `--json` one JSON line; logs go to stderr.
 */
import { createLogger } from '../../lib/index.js';
import {
  DEFAULT_DIALECT,
  type DemoKey,
  MAX_PAGE_SIZE,
  type RunningSandbox,
  SANDBOX_DEFAULT_HOST,
  SANDBOX_DEFAULT_PORT,
  FAULT_KINDS,
  PRESET_NAMES,
  isSandboxConfigError,
  startSandbox,
} from '../../sandbox/index.js';
import faultCommand, { TOKEN_VAR, faultCommandLine } from './sandbox-fault.js';
import { checkMonitorOut, writeMonitorOut } from './sandbox-monitor-out.js';
import { TEST_KEY_VAR, exampleKey, projectLines } from './sandbox-project.js';
import { ApiKey } from '../../api/client/index.js';
import { AUTH_SCHEMES, TENANT_RESOURCES, authHeader, tenantResourcePath } from '../../api/contract/index.js';
import { type Command, type CommandContext, UsageError, choiceValue, numberValue, stringValue } from '../command.js';

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
const LOG_FORMATS = ['human', 'json'] as const;
const CLI_DEFAULT_RATE_LIMIT = '600/1m';
const KEY_ENV = TEST_KEY_VAR;
const FAULTS_HELP = `inject faults from the start: KIND[:ARG][@PATH_GLOB][%PROB] rules joined by ";" (kinds: ${FAULT_KINDS.join(', ')}; each with an example: repairmon sandbox fault --help)`;
const DIALECT_HELP = `which reading of the spec's "not shown" points to speak: a preset (${PRESET_NAMES.join(', ')}), then KEY=VALUE overrides, comma-separated (default: ${DEFAULT_DIALECT}; every key and value: docs/sandbox.md)`;

/** Human lines unless asked for JSON (`--json` is for scripts, so its logs are JSON too). */
function logFlags(values: CommandContext['values']) {
  const format = choiceValue(values, 'log-format', LOG_FORMATS) ?? (values['json'] === true ? 'json' : 'human');
  const level = choiceValue(values, 'log-level', LOG_LEVELS);
  if (values['quiet'] === true && level !== undefined) throw new UsageError('--quiet and --log-level contradict each other');
  return { logFormat: format, logLevel: values['quiet'] === true ? 'warn' : (level ?? 'info') };
}

/** Flags startSandbox parses (faults, rate limit, dialect, files) are refused by it, before it listens. */
function readFlags(values: CommandContext['values']) {
  const host = stringValue(values, 'host') ?? SANDBOX_DEFAULT_HOST;
  if (host.trim() === '') throw new UsageError('--host must not be empty');
  const tlsCaOut = stringValue(values, 'tls-ca-out');
  if (tlsCaOut !== undefined && values['tls'] !== true) throw new UsageError('--tls-ca-out needs --tls');
  if (tlsCaOut?.trim() === '') throw new UsageError('--tls-ca-out must not be empty');
  const monitorOut = stringValue(values, 'monitor-out');
  if (monitorOut?.trim() === '') throw new UsageError('--monitor-out must not be empty');
  return {
    monitorOut,
    json: values['json'] === true,
    ...logFlags(values),
    // startSandbox's options: an undefined one takes its default.
    sandbox: {
      tls: values['tls'] === true,
      tlsCaOut,
      pageSize: numberValue(values, 'page-size', { min: 1, max: MAX_PAGE_SIZE }, true),
      host,
      port: numberValue(values, 'port', { min: 0, max: 65_535 }, true) ?? SANDBOX_DEFAULT_PORT,
      faults: stringValue(values, 'faults') ?? '',
      rateLimit: stringValue(values, 'rate-limit') ?? CLI_DEFAULT_RATE_LIMIT,
      dataFile: stringValue(values, 'data'),
      keysFile: stringValue(values, 'keys'),
      dialect: stringValue(values, 'dialect'),
    },
  };
}

function jsonLine(sandbox: RunningSandbox, monitorConfig: string | undefined): string {
  const keys = sandbox.keys.map((k) => ({
    alias: k.alias,
    kind: k.kind,
    tenant: k.tenant ?? null,
    environment: k.environment,
    scopes: k.scopes,
    key: k.key,
  }));
  const json = {
    baseUrl: sandbox.baseUrl,
    keys,
    dialect: sandbox.dialect,
    control: sandbox.control,
    ...(sandbox.ca ? { caFile: sandbox.ca.file } : {}),
    ...(monitorConfig ? { monitorConfig } : {}),
  };
  return `${JSON.stringify(json)}\n`;
}

function keyPurpose(key: DemoKey, sandbox: RunningSandbox): string {
  if (key.revoked) return `revoked: expect ${sandbox.dialect.unauthorizedStatus} unauthorized`;
  if (key.kind === 'platform') return 'platform key: /platform/* and every tenant';
  const lacking = TENANT_RESOURCES.filter((r) => !key.scopes.includes(r));
  const narrow = lacking.length > 0 ? ` (scope lacks ${lacking.join(', ')})` : '';
  return `tenant ${key.tenant ?? '?'}${narrow}`;
}

/** A key from --keys is a lasting secret: only its last 4 are shown (`--json` prints it for scripts). */
function shownValue(key: DemoKey): string {
  return key.fixed ? `…${key.key.slice(-4)} (from --keys)`.padEnd(40) : key.key;
}

function humanSummary(sandbox: RunningSandbox, monitorConfig: string | undefined): string {
  const rows = sandbox.keys.map((k) => `  ${k.alias.padEnd(20)} ${k.environment.padEnd(11)} ${shownValue(k)}  ${keyPurpose(k, sandbox)}`);
  const example = exampleKey(sandbox);
  const url = example?.tenant ? `${sandbox.baseUrl}${tenantResourcePath(example.tenant, 'clients')}` : `${sandbox.baseUrl}/`;
  const curls = AUTH_SCHEMES.map((scheme) => {
    const header = authHeader(scheme, `$${KEY_ENV}`);
    const cacert = sandbox.ca ? `--cacert ${sandbox.ca.file} ` : '';
    return `  curl ${cacert}-H "${header.name === 'authorization' ? 'Authorization' : header.name}: ${header.value}" ${url}`;
  });
  return [
    `Sandbox API v1 listening on ${sandbox.baseUrl}`,
    `Docs (public): ${sandbox.baseUrl}/docs`,
    `Dialect: ${sandbox.dialect.name}`,
    '',
    sandbox.keys.some((k) => k.fixed)
      ? 'Keys (from --keys where marked, the others new on every start):'
      : 'Demo keys (throwaway, new on every start):',
    `  ${'ALIAS'.padEnd(20)} ${'ENVIRONMENT'.padEnd(11)} KEY`,
    ...rows,
    '',
    ...projectLines(sandbox),
    '',
    `Try it (with ${KEY_ENV} exported as above, key ${example?.alias ?? ''}):`,
    ...curls,
    '',
    `Change its faults while it runs (the token is this run's secret${sandbox.ca ? `; with NODE_EXTRA_CA_CERTS=${sandbox.ca.file}` : ''}):`,
    `  ${faultCommandLine(sandbox.baseUrl, sandbox.control.token)}`,
    '',
    ...(monitorConfig
      ? ['Watch it with the monitor (config and key files written by --monitor-out):', `  repairmon serve --config ${monitorConfig}`, '']
      : []),
    'Press Ctrl+C to stop.',
    '',
  ].join('\n');
}

async function run(ctx: CommandContext): Promise<number> {
  const flags = readFlags(ctx.values);
  const { host, port } = flags.sandbox;
  let secrets: ApiKey[] = [];
  const logger = createLogger({
    level: flags.logLevel,
    format: flags.logFormat,
    destination: ctx.stderr,
    secrets: () => secrets,
    name: 'sandbox',
  });
  if (flags.monitorOut !== undefined) await checkMonitorOut(flags.monitorOut);
  let sandbox: RunningSandbox;
  try {
    sandbox = await startSandbox({ ...flags.sandbox, logger });
  } catch (error) {
    if (isSandboxConfigError(error)) throw new UsageError(`--${error.option}: ${error.message}`);
    const code = (error as NodeJS.ErrnoException).code;
    // A host that does not exist here is a bad value; a busy or forbidden port is the machine's state.
    if (code === 'ENOTFOUND' || code === 'EADDRNOTAVAIL' || code === 'EAI_AGAIN') {
      throw new UsageError(`--host "${host}" is not an address of this machine (${code})`);
    }
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      ctx.stderr.write(`repairmon sandbox: cannot listen on ${host} --port ${port} (${code})\n`);
      return 1;
    }
    throw error;
  }
  secrets = [...sandbox.keys.map((k) => new ApiKey(k.key, k.alias)), new ApiKey(sandbox.control.token, TOKEN_VAR)];
  let monitorConfig: string | undefined;
  try {
    monitorConfig = flags.monitorOut === undefined ? undefined : await writeMonitorOut(flags.monitorOut, sandbox);
  } catch (error) {
    await sandbox.close();
    ctx.stderr.write(
      `repairmon sandbox: --monitor-out: cannot write to ${flags.monitorOut ?? ''} (${(error as NodeJS.ErrnoException).code ?? String(error)})\n`,
    );
    return 2;
  }
  ctx.stdout.write(flags.json ? jsonLine(sandbox, monitorConfig) : humanSummary(sandbox, monitorConfig));
  logger.info(
    {
      baseUrl: sandbox.baseUrl,
      dialect: sandbox.dialect.name,
      faults: flags.sandbox.faults || undefined,
      rateLimit: flags.sandbox.rateLimit,
      pageSize: flags.sandbox.pageSize,
      caFile: sandbox.ca?.file,
    },
    'sandbox listening',
  );
  if (!ctx.signal.aborted) await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
  await sandbox.close();
  logger.info('sandbox closed');
  return 0;
}

const command: Command = {
  name: 'sandbox',
  docs: 'docs/sandbox.md',
  options: {
    host: { type: 'string', valueName: 'HOST', description: 'interface to listen on', default: SANDBOX_DEFAULT_HOST },
    port: {
      type: 'string',
      valueName: 'PORT',
      description: 'port to listen on; 0 picks a free one',
      default: String(SANDBOX_DEFAULT_PORT),
    },
    json: {
      type: 'boolean',
      description: 'print one JSON line {baseUrl, keys, dialect, control} on stdout; logs go to stderr as JSON',
    },
    'rate-limit': {
      type: 'string',
      valueName: 'N/WINDOW',
      description: 'requests per key per window (e.g. 60/1s) or "off"',
      default: CLI_DEFAULT_RATE_LIMIT,
    },
    data: { type: 'string', valueName: 'FILE', description: 'JSON or YAML file replacing the demo tenants, records and keys' },
    tls: {
      type: 'boolean',
      description: 'serve https with a throwaway CA made at start (needs openssl); prints the CA file',
    },
    'tls-ca-out': {
      type: 'string',
      valueName: 'PATH',
      description: 'with --tls: write the CA certificate here (default: a temp file, removed on exit)',
    },
    'page-size': {
      type: 'string',
      valueName: 'N',
      description: 'answer lists in pages of N items with a Link rel="next" header (default: whole lists)',
    },
    'monitor-out': {
      type: 'string',
      valueName: 'DIR',
      description: 'write DIR/monitor.yaml watching this sandbox, and its key files, for repairmon serve',
    },
    keys: {
      type: 'string',
      valueName: 'FILE',
      description: 'JSON or YAML map alias -> key, so restarts keep those keys; values shown only with --json',
    },
    'log-level': { type: 'string', valueName: 'LEVEL', description: `log level: ${LOG_LEVELS.join(', ')} (default: info)` },
    'log-format': { type: 'string', valueName: 'FORMAT', description: 'human (a line per request) or json (default: json with --json)' },
    quiet: { type: 'boolean', description: 'no line per request, only warnings and errors (--log-level warn)' },
    // Last, so their listings end the flags; the dialect's default is in the text for the same reason.
    faults: { type: 'string', valueName: 'SPEC', description: FAULTS_HELP },
    dialect: { type: 'string', valueName: 'NAME|k=v,...', description: DIALECT_HELP },
  },
  subcommands: [faultCommand],
  run,
};

export default command;
