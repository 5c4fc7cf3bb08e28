/**
 * Where our package lives, and its version. The code runs compiled (`dist/...`) from an install
 * and as TypeScript under vitest, so the root is found by walking up to our package.json, not
 * by a fixed `../..`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const OUR_PACKAGE_NAME = 'generator-repair-service';

function readPackageJson(dir: string): { readonly name?: unknown; readonly version?: unknown } | undefined {
  const file = join(dir, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown }) : undefined;
}

export function packageRoot(from: string = import.meta.dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (readPackageJson(dir)?.name === OUR_PACKAGE_NAME) return dir;
    if (dirname(dir) === dir) throw new Error(`cannot find the ${OUR_PACKAGE_NAME} package above ${from}`);
  }
}

/** `version` of our package.json: what `repairmon --version` prints and `.yo-rc.json` records. */
export function packageVersion(root: string = packageRoot()): string {
  const version = readPackageJson(root)?.version;
  if (typeof version !== 'string' || version === '') throw new Error(`${join(root, 'package.json')} has no version`);
  return version;
}

/** The `User-Agent` of every request the monitor, `probe` and `discover` send. */
export function toolUserAgent(version: string = packageVersion()): string {
  return `repairmon/${version}`;
}
