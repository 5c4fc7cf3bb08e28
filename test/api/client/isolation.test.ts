/**
 * The client is copied verbatim into generated projects: it must type-check with only the
 * contract beside it, and import nothing but undici, p-retry, node:* and ../contract.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const CLIENT_DIR = join(ROOT, 'api/client');
const ALLOWED = /^(undici|p-retry|node:.+|\.\.\/contract\/index\.js|\.\/[a-z-]+\.js)$/;

describe('client template isolation', () => {
  const dir = mkdtempSync(join(tmpdir(), 'client-tsc-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('imports only undici, p-retry, node:*, the contract and its own files', () => {
    for (const file of readdirSync(CLIENT_DIR).filter((f) => f.endsWith('.ts'))) {
      const source = readFileSync(join(CLIENT_DIR, file), 'utf8');
      for (const match of source.matchAll(/\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g)) {
        const spec = match[1] ?? match[2] ?? '';
        expect(spec, `${file} imports ${spec}`).toMatch(ALLOWED);
      }
    }
  });

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
      include: [join(ROOT, 'api/contract'), CLIENT_DIR],
    };
    const path = join(dir, 'tsconfig.json');
    writeFileSync(path, JSON.stringify(tsconfig));
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', path, '--listFilesOnly'], { cwd: ROOT });
    const files = result.stdout.split('\n').filter((f) => f.includes('/api/'));
    expect(files.every((f) => f.includes('/api/client/') || f.includes('/api/contract/'))).toBe(true);
    await expect(promisify(execFile)(process.execPath, [tsc, '-p', path], { cwd: ROOT })).resolves.toBeDefined();
  }, 60_000);
});
