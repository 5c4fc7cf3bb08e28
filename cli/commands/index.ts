/**
 * The subcommands, each module loaded only when its command runs, so `repairmon probe` does not
 * pay for the monitor's imports. A module's default export is its Command.
 */
import type { Command } from '../command.js';

export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  readonly load: () => Promise<{ default: Command }>;
  /** Packages the command loads that an install may lack: the monitor image has no generator. */
  readonly needs?: readonly string[];
}

/** What `new` and `upgrade` load (the adapter only to ask): the monitor image leaves them out. */
const GENERATOR_PACKAGES = ['handlebars', '@yeoman/adapter'];

export const GENERATOR_MISSING = 'the monitor image does not include the generator; install generator-repair-service';

/** The package in `entry.needs` whose import failed; Node names it only in ERR_MODULE_NOT_FOUND's message. */
export function missingPackage(entry: CommandEntry, error: unknown): string | undefined {
  if ((error as { code?: unknown } | null)?.code !== 'ERR_MODULE_NOT_FOUND') return undefined;
  const message = error instanceof Error ? error.message : String(error);
  return entry.needs?.find((name) => message.includes(`'${name}'`));
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'sandbox', summary: 'run the API v1 reference sandbox with demo data and fault injection', load: () => import('./sandbox.js') },
  {
    name: 'check-config',
    summary: 'validate a monitor config file and print what it would probe',
    load: () => import('./check-config.js'),
  },
  {
    name: 'new',
    summary: 'scaffold an integration project (the yo repair-service generator; works as root)',
    load: () => import('./new.js'),
    needs: GENERATOR_PACKAGES,
  },
  {
    name: 'upgrade',
    summary: 'bring a generated project to this toolkit version (only toolkit-owned files)',
    load: () => import('./upgrade.js'),
    needs: GENERATOR_PACKAGES,
  },
  { name: 'probe', summary: "diagnose a customer's API key against the spec's debugging checklist", load: () => import('./probe.js') },
  {
    name: 'discover',
    summary: 'learn which reading of the spec a real API follows, with a few safe GET requests',
    load: () => import('./discover.js'),
  },
  {
    name: 'openapi',
    summary: 'write the OpenAPI 3.1 document of API v1, for Postman, Insomnia, Prism or codegen',
    load: () => import('./openapi.js'),
  },
  {
    name: 'serve',
    summary: 'run the monitor: scheduled probes, Prometheus metrics and a status page',
    load: () => import('./serve.js'),
  },
  { name: 'demo', summary: 'run the embedded sandbox and the monitor probing it (what npm start runs)', load: () => import('./demo.js') },
];
