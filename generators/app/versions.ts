/**
 * Dependency versions for the generated package.json, read from OUR package.json at run time
 * so they are written in exactly one place.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the generated project needs at run time and to build and test. */
export const RUNTIME_DEPENDENCIES = ['undici', 'p-retry'] as const;
export const DEV_DEPENDENCIES = ['typescript', 'vitest', '@types/node'] as const;

export interface DependencyVersions {
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
  readonly nodeEngine: string;
}

interface OurPackageJson {
  readonly version?: string;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly engines?: { node?: string };
}

function pick(names: readonly string[], pkg: OurPackageJson): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const range = pkg.dependencies?.[name] ?? pkg.devDependencies?.[name];
    if (range === undefined) throw new Error(`our package.json does not list ${name}; the generated project needs it`);
    out[name] = range;
  }
  return out;
}

export function versionsFrom(pkg: OurPackageJson): DependencyVersions {
  const nodeEngine = pkg.engines?.node;
  if (nodeEngine === undefined) throw new Error('our package.json has no engines.node');
  return { dependencies: pick(RUNTIME_DEPENDENCIES, pkg), devDependencies: pick(DEV_DEPENDENCIES, pkg), nodeEngine };
}

export function readVersions(root: string): DependencyVersions {
  return versionsFrom(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as OurPackageJson);
}

/** The version recorded in `.yo-rc.json` and named in every toolkit file's header. */
export function readToolkitVersion(root: string): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as OurPackageJson;
  if (typeof pkg.version !== 'string' || pkg.version === '') throw new Error('our package.json has no version');
  return pkg.version;
}
