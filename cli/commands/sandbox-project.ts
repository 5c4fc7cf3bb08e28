/**
 * What `repairmon sandbox` tells the owner of a generated project: the export lines in the
 * project's own variable names (the generator's default prefix, REPAIR_API), and with `--tls`
 * the lines that rehearse the switch to production against this https sandbox.
 */
import { DEFAULT_ENV_PREFIX } from '../../generators/entry.js';
import type { DemoKey, RunningSandbox } from '../../sandbox/index.js';

/** With the generator's default `--env-prefix`; a project generated with another reads `<PREFIX>_TEST_KEY` etc. */
export const TEST_KEY_VAR = `${DEFAULT_ENV_PREFIX}_TEST_KEY`;

/** The first good tenant key of that environment (of that tenant when given), a throwaway one before one fixed by `--keys`. */
function firstKey(sandbox: RunningSandbox, environment: DemoKey['environment'], tenant?: string): DemoKey | undefined {
  const fits = sandbox.keys.filter(
    (k) => k.kind === 'tenant' && !k.revoked && k.tenant && k.environment === environment && (tenant === undefined || k.tenant === tenant),
  );
  return fits.find((k) => !k.fixed) ?? fits[0];
}

/** The example key the summary uses: a good tenant test key. */
export function exampleKey(sandbox: RunningSandbox): DemoKey | undefined {
  return firstKey(sandbox, 'test') ?? sandbox.keys[0];
}

/** A `--keys` value is a lasting secret: printed as where to find it, never as itself. */
function keyValue(key: DemoKey | undefined): string {
  if (key === undefined) return '';
  return key.fixed ? `"<the value of ${key.alias} in your --keys file>"` : key.key;
}

function keyNote(key: DemoKey | undefined, what: string): string {
  return key === undefined ? '' : `     # ${key.alias}: ${key.fixed ? `from --keys` : `a throwaway ${what} key`}`;
}

export function projectLines(sandbox: RunningSandbox): string[] {
  const test = exampleKey(sandbox);
  const p = DEFAULT_ENV_PREFIX;
  const lines = [
    `For a generated project (${p}_* variables; one generated with --env-prefix PREFIX reads PREFIX_TEST_KEY and so on):`,
    `  export ${p}_TEST_BASE_URL=${sandbox.baseUrl}${test?.tenant ? ` ${p}_TENANT=${test.tenant}` : ''}${sandbox.ca ? ` ${p}_CA_FILE=${sandbox.ca.file}` : ''}`,
    `  export ${TEST_KEY_VAR}=${keyValue(test)}${keyNote(test, 'test')}`,
  ];
  if (!sandbox.ca) return lines;
  const prod = firstKey(sandbox, 'production', test?.tenant);
  return [
    ...lines,
    '',
    `CA certificate (trust it for this https sandbox): ${sandbox.ca.file}`,
    'Rehearse the switch to production:',
    `  export ${p}_ENV=production ${p}_PRODUCTION_BASE_URL=${sandbox.baseUrl} ${p}_CA_FILE=${sandbox.ca.file}`,
    `  export ${p}_PRODUCTION_KEY=${keyValue(prod)}${keyNote(prod, 'production')}`,
  ];
}
