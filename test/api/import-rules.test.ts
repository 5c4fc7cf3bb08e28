/**
 * The shared API layer is reached only through its entries, and what ships into generated
 * projects imports only what those projects install and type-checks on its own.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { OLD_HOME, ROOT, SHIPPED_FOLDERS, checkImport, sourceFiles, violations } from './import-rules.js';

const TOP_LEVEL = ['api', 'bench', 'cli', 'diagnose', 'discover', 'generators', 'lib', 'monitor', 'sandbox', 'templates', 'test'];

describe('import rules', () => {
  it('no file imports a non-entry file of api/, the server side outside the sandbox, or the old home in templates/', () => {
    expect(violations(sourceFiles(TOP_LEVEL))).toEqual([]);
  });

  it('the rules fail on a deep import, a misplaced server import and a shipped file importing a tool', () => {
    expect(checkImport('monitor/probe/run.ts', '../../api/client/attempt.js')).toHaveLength(1);
    expect(checkImport('monitor/probe/run.ts', '../../api/client/single-attempt.js')).toEqual([]);
    expect(checkImport('monitor/probe/run.ts', '../../api/contract/server/index.js')).toHaveLength(1);
    expect(checkImport('sandbox/decide.ts', '../api/contract/server/index.js')).toEqual([]);
    expect(checkImport('api/client/attempt.ts', '../../monitor/service.js')).toHaveLength(1);
    expect(checkImport('api/client/attempt.ts', 'zod')).toHaveLength(1);
    expect(checkImport('api/checklist/run.ts', '../contract/server/index.js')).toHaveLength(1);
    expect(checkImport('cli/main.ts', `../${OLD_HOME}/contract/index.js`)).toHaveLength(1);
    expect(checkImport('cli/commands/openapi.ts', '../../api/openapi/index.js')).toEqual([]);
    expect(checkImport('cli/commands/openapi.ts', '../../api/openapi/document.js')).toHaveLength(1);
    expect(checkImport('api/openapi/document.ts', '../contract/index.js')).toEqual([]);
    expect(checkImport('api/openapi/document.ts', '../contract/server/index.js')).toEqual([]);
    expect(checkImport('api/openapi/serialize.ts', 'yaml')).toEqual([]);
    expect(checkImport('api/openapi/document.ts', '../contract/api.js')).toHaveLength(1);
    expect(checkImport('api/openapi/document.ts', '../client/index.js')).toHaveLength(1);
    expect(checkImport('api/openapi/document.ts', '../../sandbox/dialect/index.js')).toHaveLength(1);
    expect(checkImport('api/openapi/document.ts', 'zod')).toHaveLength(1);
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
