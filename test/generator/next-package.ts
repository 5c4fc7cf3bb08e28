/**
 * A simulated next release (N+1) of this package for upgrade tests: a copy (built `dist/`,
 * `bin/`, `generators/`, `templates/`, `api/`) with a bumped version, a changed, an added and a
 * removed `api/` file, a changed OpenAPI builder, a raised dependency and one more script; and
 * the strict type-check of a project upgraded to it.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import { fakeIo } from '../helpers/fake-io.js';
import { ROOT, childEnv, runProcess } from '../helpers/rig.js';
import { readJson } from './helpers.js';

export const NEXT_VERSION = '99.0.0';

/** This package copied under another version, its node_modules linked. */
export function copyPackage(dir: string, version: string, dependencies: Record<string, string> = {}): void {
  mkdirSync(dir);
  for (const part of ['api', 'bin', 'dist', 'generators', 'templates']) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const pkg = readJson(join(ROOT, 'package.json')) as { version: string; dependencies: Record<string, string> };
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ ...pkg, version, dependencies: { ...pkg.dependencies, ...dependencies } }, null, 2),
  );
}

/** N+1: the changes a release would bring. */
export function makeNextPackage(dir: string): void {
  copyPackage(dir, NEXT_VERSION, { undici: '^7.99.0' });
  writeFileSync(
    join(dir, 'api/contract/errors.ts'),
    `${readFileSync(join(dir, 'api/contract/errors.ts'), 'utf8')}\n/** Added in ${NEXT_VERSION}. */\nexport const NEXT_CODE = true;\n`,
  );
  writeFileSync(join(dir, 'api/client/added-in-next.ts'), `/** New in ${NEXT_VERSION}. */\nexport const ADDED_IN_NEXT = 1;\n`);
  rmSync(join(dir, 'api/contract/README.md'));
  // The OpenAPI document is built by the compiled builder: N+1 describes the API a little differently.
  const builder = join(dir, 'dist/api/openapi/document.js');
  writeFileSync(
    builder,
    readFileSync(builder, 'utf8').replace(
      "title: 'Repair-Service Integration API'",
      `title: 'Repair-Service Integration API (${NEXT_VERSION})'`,
    ),
  );
  const template = join(dir, 'templates/app/package.json.hbs');
  writeFileSync(
    template,
    readFileSync(template, 'utf8').replace('"test": "vitest run",', '"test": "vitest run",\n    "check:ci": "npm run check",'),
  );
}

/**
 * The projects compile, strict, against this package's own node_modules (the versions they ask
 * for): one `tsc --build` over their own tsconfig.json files, which parses the shared types once
 * (`--force`: never skipped as up to date by a tsbuildinfo a copied project brought along).
 */
export async function typechecks(...projects: string[]): Promise<void> {
  for (const project of projects) symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'));
  const tsc = await runProcess(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
      '--build',
      '--force',
      ...projects.map((project) => join(project, 'tsconfig.json')),
    ],
    { cwd: ROOT, env: childEnv() },
  );
  expect(tsc.code, tsc.stdout).toBe(0);
}

/**
 * `repairmon ARGS` of the package at `pkgRoot` through its compiled CLI entry in this process
 * (whose working directory the caller sets): no node start and yeoman load per run. The runs
 * whose point is what the process prints, where it starts or how it dies stay children.
 */
export async function repairmonHere(pkgRoot: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { main } = (await import(pathToFileURL(join(pkgRoot, 'dist', 'cli', 'index.js')).href)) as typeof import('../../cli/index.js');
  const io = { ...fakeIo(), env: {} };
  io.stdin.end();
  const code = await main(args, io);
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}
