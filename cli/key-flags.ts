/**
 * The flags every command that takes a customer's key shares (`probe`, `discover`): where the
 * key comes from, the refusal of `--key`, `--tenant`, `--platform-path` and `--no-proxy`. A key
 * never comes from argv: it would show in `ps` and in shell history.
 */
import { validateTenantSlug } from '../api/contract/index.js';
import { platformSubPath } from '../api/contract/readings.js';
import type { ApiKey } from '../api/client/index.js';
import { plainHttpProxyWarning, proxyRoute } from '../lib/index.js';
import { chooseKeySource, keyFlagsHint, readKey } from '../diagnose/index.js';
import { type CommandContext, type OptionSpec, UsageError, stringList, stringValue } from './command.js';

/** The key-source options; `optional` words their help for a command that runs without a key. */
export function keyOptions(optional: boolean): Record<string, OptionSpec> {
  const prefix = optional ? 'optional: ' : '';
  return {
    'key-env': { type: 'string', valueName: 'VAR', description: `${prefix}read the key from this environment variable` },
    'key-file': { type: 'string', valueName: 'PATH', description: `${prefix}read the key from this file` },
    'key-stdin': { type: 'boolean', description: `${prefix}read the key from stdin` },
    key: { type: 'string', valueName: 'VALUE', description: 'refused: a key on the command line leaks into ps and shell history' },
    'no-proxy': {
      type: 'boolean',
      description: 'go direct, whatever HTTPS_PROXY / HTTP_PROXY say (they are honoured by default, NO_PROXY too)',
    },
  };
}

/** Whether the requests go through the environment's proxy; warns when a plain-http key would cross one in clear. */
export function proxyFromFlags(ctx: CommandContext, baseUrl: string, command: string): boolean {
  const useProxy = ctx.values['no-proxy'] !== true;
  const warning = plainHttpProxyWarning(baseUrl, proxyRoute(baseUrl, useProxy, ctx.env), '--no-proxy');
  if (warning !== undefined) ctx.stderr.write(`repairmon ${command}: warning: ${warning}\n`);
  return useProxy;
}

export function refuseKeyFlag(values: CommandContext['values'], command: string): void {
  if (values['key'] !== undefined)
    throw new UsageError(
      `--key is refused: a key on the command line shows in ps and shell history. Pass it with ${keyFlagsHint(command)}`,
    );
}

/** The key from its source; `required` asks on a terminal when no flag names one. */
export async function keyFromFlags(ctx: CommandContext, required: boolean): Promise<ApiKey | undefined> {
  const flags = {
    keyEnv: stringValue(ctx.values, 'key-env'),
    keyFile: stringValue(ctx.values, 'key-file'),
    keyStdin: ctx.values['key-stdin'] === true,
  };
  if (!required && flags.keyEnv === undefined && flags.keyFile === undefined && !flags.keyStdin) return undefined;
  const choice = chooseKeySource(flags, required && ctx.stdin.isTTY === true);
  if (!choice.ok) throw new UsageError(choice.reason);
  const read = await readKey(choice.source, ctx);
  if (!read.ok) throw new UsageError(read.reason);
  return read.key;
}

export function tenantFlag(values: CommandContext['values']): string | undefined {
  const tenant = stringValue(values, 'tenant');
  if (tenant === undefined) return undefined;
  const check = validateTenantSlug(tenant);
  if (!check.ok) throw new UsageError(`--tenant "${tenant}" ${check.reason}`);
  return tenant;
}

/** `--platform-path` values as sub-paths below /platform/, or undefined when none was given. */
export function platformPathsFlag(values: CommandContext['values']): string[] | undefined {
  const given = stringList(values, 'platform-path');
  if (given.length === 0) return undefined;
  return given.map((raw) => {
    const check = platformSubPath(raw);
    if (!check.ok) throw new UsageError(`--platform-path "${raw}" ${check.reason}`);
    return check.sub;
  });
}
