/**
 * The subcommands. Each entry names its module, loaded only when the command runs, so
 * `repairmon probe` does not pay for the monitor's imports. One line per command module;
 * its default export is its Command, whose name and summary must match the entry.
 */
import type { Command } from '../command.js';

export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  readonly load: () => Promise<{ default: Command }>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'sandbox', summary: 'run the API v1 reference sandbox with demo data and fault injection', load: () => import('./sandbox.js') },
  { name: 'check-config', summary: 'validate a monitor config file and print what it would probe', load: () => import('./check-config.js') },
  { name: 'new', summary: 'scaffold an integration project (the yo repair-service generator; works as root)', load: () => import('./new.js') },
  { name: 'upgrade', summary: 'bring a generated project to this toolkit version (replaces only toolkit-owned files)', load: () => import('./upgrade.js') },
  { name: 'probe', summary: "diagnose a customer's API key against the spec's debugging checklist", load: () => import('./probe.js') },
  { name: 'discover', summary: 'learn which reading of the spec a real API follows, with a few safe GET requests', load: () => import('./discover.js') },
  { name: 'serve', summary: 'run the monitor: probe the API on a schedule, export Prometheus metrics and a status page', load: () => import('./serve.js') },
  { name: 'demo', summary: 'run the embedded sandbox and the monitor probing it (what npm start runs)', load: () => import('./demo.js') },
];
