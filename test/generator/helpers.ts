/** Shared set-up for the generator tests: run the TypeScript generator through yeoman-test. */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import helpers from 'yeoman-test';
import RepairServiceGenerator from '../../generators/app/generator.js';

/** yeoman reads our package.json next to this path (namespace, `.yo-rc.json` key). */
export const GENERATOR_INDEX = resolve(import.meta.dirname, '../../generators/app/index.js');
export const CONFIG_KEY = 'generator-repair-service';

/** Every answer as a flag, so nothing is asked. */
export const ALL_FLAGS = {
  name: 'nowak-sync',
  'package-name': '@nowak/repair-sync',
  tenant: 'rowery-nowak',
  'auth-scheme': 'x-api-key',
  'test-base-url': 'http://127.0.0.1:4010/api/v1',
  'production-base-url': 'https://api.nowak.example/api/v1',
  'env-prefix': 'NOWAK_API',
  'github-actions': true,
  pagination: true,
  parse: true,
} as const;

/**
 * A run with the generator's class (so vitest compiles the TS), never forcing: yeoman-test
 * forces by default, and the refusals depend on it not doing so.
 */
export function runGenerator(options: Record<string, unknown>, envOptions: Record<string, unknown> = {}) {
  return helpers
    .run(RepairServiceGenerator as never, { resolved: GENERATOR_INDEX, namespace: 'repair-service:app' }, { force: false, ...envOptions })
    .withOptions({ force: false, interactive: false, ...options } as never);
}

/** Relative path -> contents of every file under `dir`. */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.set(relative(dir, full), readFileSync(full, 'utf8'));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

export function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}
