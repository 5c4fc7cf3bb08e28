/**
 * Boundaries as data: every code folder is reached only through its entry, imports only what
 * the "May import:" line of its README lists, and no folder's sub-folders import each other in
 * a cycle. What ships into generated projects imports only what those projects install and
 * type-checks on its own.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  OLD_HOME,
  ROOT,
  SHIPPED_FOLDERS,
  checkImport,
  fileCycles,
  folderCycles,
  importEdges,
  parseRuleLine,
  readRules,
  sharedTestHelpers,
  sourceFiles,
  unusedItems,
  violations,
} from './helpers/import-rules.js';

const rules = readRules();
const code = sourceFiles(rules.folders);

describe('import rules', () => {
  it('every code folder has one "May import:" line, each item an entry or a dependency', () => {
    expect(rules.problems).toEqual([]);
    expect(rules.folders).toEqual(
      expect.arrayContaining(['api/contract', 'api/openapi', 'bench', 'bin', 'cli', 'lib', 'monitor', 'sandbox']),
    );
  });

  it('no file imports past an entry or what its README allows, and templates never name the old home', () => {
    expect(violations(rules, [...code, ...sourceFiles(['templates', 'test'])])).toEqual([]);
  });

  it('each line lists only what its folder imports', () => {
    expect(unusedItems(rules, code)).toEqual([]);
  });

  it('no import cycle between the sub-folders of a folder, nor between folders', () => {
    expect(folderCycles(importEdges(code))).toEqual([]);
  });

  it('no import cycle between files, type-only imports included', () => {
    // A type-only cycle costs nothing at run time, but the files still cannot be read or moved one without the other.
    expect(fileCycles(importEdges(code))).toEqual([]);
  });

  it('finds a file cycle through types, and none in a chain', () => {
    expect(
      fileCycles([
        ['diagnose/explain.ts', 'diagnose/types.ts'],
        ['diagnose/types.ts', 'diagnose/verdict.ts'],
        ['diagnose/verdict.ts', 'diagnose/explain.ts'],
        ['diagnose/render.ts', 'diagnose/types.ts'],
      ]),
    ).toEqual([['diagnose/explain.ts', 'diagnose/types.ts', 'diagnose/verdict.ts']]);
    expect(
      fileCycles([
        ['lib/a.ts', 'lib/b.ts'],
        ['lib/b.ts', 'lib/a.ts'],
        ['lib/c.ts', 'lib/a.ts'],
      ]),
    ).toEqual([['lib/a.ts', 'lib/b.ts']]);
    expect(
      fileCycles([
        ['a.ts', 'b.ts'],
        ['b.ts', 'c.ts'],
        ['a.ts', 'c.ts'],
      ]),
    ).toEqual([]);
  });

  it('reports a folder without a line and an item that names neither an entry nor a dependency', () => {
    const root = mkdtempSync(join(tmpdir(), 'import-rules-'));
    try {
      writeFileSync(join(root, 'package.json'), JSON.stringify({ dependencies: { pino: '1' } }));
      for (const dir of ['lib', 'monitor', 'monitor/config']) mkdirSync(join(root, dir));
      for (const file of ['lib/index.ts', 'monitor/index.ts', 'monitor/config/load.ts']) writeFileSync(join(root, file), '');
      writeFileSync(join(root, 'lib/README.md'), 'May import: pino, zod, monitor/config/load, monitor.\n');
      writeFileSync(join(root, 'monitor/README.md'), 'May import: `lib/` entries.\n');
      expect(readRules(root).problems).toEqual([
        'lib/README.md: "zod" is neither a folder\'s entry nor a dependency in package.json',
        'lib/README.md: "monitor/config/load" is neither a folder\'s entry nor a dependency in package.json',
        'monitor/README.md: "May import: `lib/` entries." is not "May import: a, b, c." for a code folder',
        'monitor/ has no "May import:" line in its README',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('the rule line has one form', () => {
    expect(parseRuleLine('May import: api/contract, lib, pino, node:*.')).toEqual({
      scope: undefined,
      items: ['api/contract', 'lib', 'pino', 'node:*'],
    });
    expect(parseRuleLine('- `client/`: May import: api/contract, undici.')).toEqual({ scope: 'client', items: ['api/contract', 'undici'] });
    expect(parseRuleLine('May import: nothing.')).toEqual({ scope: undefined, items: [] });
    expect(parseRuleLine('May import: `api/` entries, `lib/`')).toBeUndefined();
  });

  it('fails on a deep import, an import its README does not list, and an unlisted package', () => {
    const bad = (file: string, specifier: string): number => checkImport(rules, file, specifier).length;
    expect(bad('cli/commands/probe.ts', '../../diagnose/index.js')).toBe(0);
    expect(bad('cli/commands/probe.ts', '../../diagnose/plan.js')).toBe(1);
    expect(bad('cli/commands/serve.ts', '../../monitor/config/load.js')).toBe(1);
    expect(bad('discover/run.ts', '../lib/table.js')).toBe(1);
    expect(bad('monitor/service.ts', '../sandbox/index.js')).toBe(1);
    expect(bad('sandbox/server.ts', '../monitor/index.js')).toBe(1);
    expect(bad('lib/logger.ts', '../cli/index.js')).toBe(1);
    expect(bad('generators/app/render.ts', '../../sandbox/defaults.js')).toBe(1);
    expect(bad('cli/commands/new.ts', '../../generators/entry.js')).toBe(0);
    expect(bad('cli/commands/new.ts', '../../generators/app/flags.js')).toBe(1);
    expect(bad('monitor/service.ts', 'prom-client')).toBe(0);
    expect(bad('diagnose/run.ts', 'zod')).toBe(1);
    expect(bad('diagnose/run.ts', 'node:fs')).toBe(0);
    expect(bad('api/openapi/document.ts', 'node:fs')).toBe(1);
    expect(bad('bin/repairmon.js', '../dist/cli/index.js')).toBe(0);
    expect(bad('bin/repairmon.js', '../dist/cli/command.js')).toBe(1);
    expect(bad('monitor/config/load.ts', '../probe/plan.js')).toBe(0);
  });

  it('keeps the api/ rules: entries only, the server side for the sandbox and the OpenAPI builder, shipped code self-contained', () => {
    const bad = (file: string, specifier: string): number => checkImport(rules, file, specifier).length;
    expect(bad('monitor/probe/run.ts', '../../api/client/attempt.js')).toBe(1);
    expect(bad('monitor/probe/run.ts', '../../api/client/single-attempt.js')).toBe(0);
    expect(bad('monitor/probe/run.ts', '../../api/contract/server/index.js')).toBe(1);
    expect(bad('sandbox/decide.ts', '../api/contract/server/index.js')).toBe(0);
    expect(bad('api/client/attempt.ts', '../../monitor/service.js')).toBe(1);
    expect(bad('api/client/attempt.ts', 'zod')).toBe(1);
    expect(bad('api/client/attempt.ts', '../contract/readings.js')).toBe(1);
    expect(bad('api/contract/api.ts', './readings.js')).toBe(1);
    expect(bad('api/contract/api.ts', './server/index.js')).toBe(1);
    expect(bad('api/contract/server/routes.ts', '../api.js')).toBe(0);
    expect(bad('api/checklist/run.ts', '../contract/server/index.js')).toBe(1);
    expect(bad('cli/index.ts', `../${OLD_HOME}/contract/index.js`)).toBe(1);
    expect(bad('cli/commands/openapi.ts', '../../api/openapi/index.js')).toBe(0);
    expect(bad('cli/commands/openapi.ts', '../../api/openapi/document.js')).toBe(1);
    expect(bad('api/openapi/document.ts', '../contract/index.js')).toBe(0);
    expect(bad('api/openapi/document.ts', '../contract/server/index.js')).toBe(0);
    expect(bad('api/openapi/serialize.ts', 'yaml')).toBe(0);
    expect(bad('api/openapi/document.ts', '../contract/api.js')).toBe(1);
    expect(bad('api/openapi/document.ts', '../client/index.js')).toBe(1);
    expect(bad('api/openapi/document.ts', '../../sandbox/dialect/index.js')).toBe(1);
    expect(bad('api/openapi/document.ts', 'zod')).toBe(1);
  });

  it('tests may import anything; what two test folders share lives in test/helpers/', () => {
    expect(checkImport(rules, 'test/monitor/probe/plan.test.ts', '../../../monitor/probe/plan.js')).toEqual([]);
    expect(sharedTestHelpers(importEdges(sourceFiles(['test'])))).toEqual([]);
    expect(sharedTestHelpers([['test/reliability/x.test.ts', 'test/monitor/config/load.test.ts']])).toHaveLength(1);
    expect(
      sharedTestHelpers([
        ['test/reliability/x.test.ts', 'test/helpers/rig.ts'],
        ['test/monitor/a.test.ts', 'test/monitor/tls/config.test.ts'],
      ]),
    ).toEqual([]);
  });

  it('finds a cycle between sub-folders, and between top-level folders', () => {
    expect(
      folderCycles([
        ['monitor/config/summary.ts', 'monitor/probe/plan.ts'],
        ['monitor/probe/plan.ts', 'monitor/config/types.ts'],
      ]),
    ).toEqual([
      'monitor/config -> monitor/probe (monitor/config/summary.ts -> monitor/probe/plan.ts); monitor/probe -> monitor/config (monitor/probe/plan.ts -> monitor/config/types.ts)',
    ]);
    expect(
      folderCycles([
        ['lib/a.ts', 'monitor/index.ts'],
        ['monitor/x/b.ts', 'lib/index.ts'],
      ]),
    ).toHaveLength(1);
    expect(
      folderCycles([
        ['monitor/service.ts', 'monitor/probe/run.ts'],
        ['monitor/probe/run.ts', 'monitor/history.ts'],
      ]),
    ).toEqual([]);
  });
});

describe('the shipped set', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shipped-tsc-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('type-checks alone under NodeNext strict with noUncheckedIndexedAccess', async () => {
    const tsconfig = {
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')],
        strict: true,
        noUncheckedIndexedAccess: true,
        noImplicitOverride: true,
        skipLibCheck: true,
        noEmit: true,
      },
      include: SHIPPED_FOLDERS.map((f) => join(ROOT, f)),
      exclude: [join(ROOT, 'api/contract/server')],
    };
    const path = join(dir, 'tsconfig.json');
    writeFileSync(path, JSON.stringify(tsconfig));
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const listed = await promisify(execFile)(process.execPath, [tsc, '-p', path, '--listFilesOnly'], { cwd: ROOT });
    const ours = listed.stdout.split('\n').filter((f) => f.startsWith(ROOT) && !f.includes('/node_modules/'));
    expect(ours.length).toBeGreaterThan(20);
    expect(ours.filter((f) => !SHIPPED_FOLDERS.some((s) => f.startsWith(join(ROOT, s))) || f.includes('/server/'))).toEqual([]);
    await expect(promisify(execFile)(process.execPath, [tsc, '-p', path], { cwd: ROOT })).resolves.toBeDefined();
  }, 60_000);
});
