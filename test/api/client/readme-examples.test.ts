/**
 * api/client/README.md ships into every generated project (src/repair-service/client/README.md),
 * so it must be true: every `ts` block is written to its own file in a temp project laid out as a
 * generated one and type-checked with the project's strict settings (a few type expectations ride
 * along); it names every export of the client's entry and of the opt-in parse.ts and paginate.ts; it stays short.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import * as entry from '../../../api/client/index.js';
import * as paging from '../../../api/client/paginate.js';
import * as parsing from '../../../api/client/parse.js';
import { ROOT } from '../../helpers/import-rules.js';

const README = join(ROOT, 'api/client/README.md');

/** The `ts` fenced blocks of a markdown text, in order. */
export function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
}

/** Blocks that use the `client` of the first example get it declared, as the README says. */
function asModule(block: string): string {
  const needsClient = /\bclient\./.test(block) && !/\bconst client\b/.test(block);
  const prelude = needsClient
    ? "import type { RepairServiceClient } from './client/index.js';\ndeclare const client: RepairServiceClient;\n"
    : '';
  return `${prelude}${block}\nexport {};\n`;
}

/** Types the README promises, checked the same way (an unused @ts-expect-error fails too). */
const TYPE_EXPECTATIONS = `
import { z } from 'zod';
import { type ApiError, type ApiPromise, type ApiResponse, type ErrorKind, type NextStep, createClient } from './client/index.js';
import { type Paginated, paginate } from './client/paginate.js';
import { parseData, parseItems } from './client/parse.js';

const Repair = z.object({ id: z.number() });
const client = createClient({ baseUrl: 'https://h/api/v1', apiKey: 'k' });
const repairs: ReadonlyArray<{ id: number }> = await parseItems(client.list('repairs'), Repair);
const one: { id: number } = await parseData(client.get('/tenants/x/repairs/17'), Repair);
const bikes: readonly unknown[] = await client.list('bikes');
// @ts-expect-error items stay unknown until typed
const firstBike: { id: number } = bikes[0];
const guarded: readonly string[] = await parseItems(client.list('logs'), (v: unknown): v is string => typeof v === 'string');
const promise: ApiPromise<readonly unknown[]> = client.list('clients');
const asPromise: Promise<readonly unknown[]> = promise;
const response: ApiResponse = (await promise.withResponse()).response;
const paged: Paginated<{ id: number }> = paginate(client, 'repairs', { parse: Repair });
const step: NextStep['kind'] = 'use_platform_key';
const kind = (e: ApiError): ErrorKind => e.kind;
// @ts-expect-error a validator must be a schema or a type guard
void parseItems(client.list('clients'), 42);
// @ts-expect-error the list methods take no parse hook: parse.ts does
void client.list('clients', { parse: Repair });
// @ts-expect-error the answer kinds are a closed list
const wrong: ErrorKind = 'key_rejected';
export { repairs, one, firstBike, guarded, asPromise, response, paged, step, kind, wrong };
`;

describe('api/client/README.md', () => {
  const dir = mkdtempSync(join(tmpdir(), 'client-readme-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names every public export, fits in 120 lines, and shows each feature', () => {
    const text = readFileSync(README, 'utf8');
    expect(text.split('\n').length).toBeLessThanOrEqual(121);
    const exported = [...Object.keys(entry), ...Object.keys(paging), ...Object.keys(parsing)];
    // Type-only exports leave no runtime key: read them from the entry's source.
    const read = (...files: string[]) => files.map((f) => readFileSync(join(ROOT, 'api/client', f), 'utf8')).join('\n');
    const [entries, optIn] = [read('index.ts', 'errors.ts'), read('parse.ts', 'paginate.ts')];
    const declared = (text: string) => [...text.matchAll(/^export (?:interface|type) (\w+)/gm)];
    const types = [...entries.matchAll(/\btype (\w+)/g), ...declared(entries), ...declared(optIn)].map((m) => m[1]!);
    for (const name of new Set([...exported, ...types])) expect(text, name).toMatch(new RegExp(`\`${name}[\`(]`));
    for (const feature of [
      'parse: Repair',
      '.withResponse()',
      'URLSearchParams',
      'client.get(',
      'paginate(client',
      '.pages()',
      'nextStep(error)',
      'switch (error.kind)',
      'REPAIR_API_LOG=debug',
    ]) {
      expect(text, feature).toContain(feature);
    }
  });

  it('every ts block type-checks next to the shipped folders, strict (the runnable ones also run, in a generated project)', async () => {
    // A `<!-- runnable -->` block imports the project's src/config.ts, which only a generated
    // project has: test/generator/readme-examples.test.ts builds and runs it in one.
    const text = readFileSync(README, 'utf8');
    const runnable = new Set([...text.matchAll(/^<!-- runnable -->\n```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? ''));
    const blocks = tsBlocks(text).filter((b) => !runnable.has(b));
    expect(runnable.size).toBeGreaterThanOrEqual(1);
    expect(blocks.length).toBeGreaterThanOrEqual(1);
    const src = join(dir, 'src');
    mkdirSync(src, { recursive: true });
    cpSync(join(ROOT, 'api/client'), join(src, 'client'), { recursive: true });
    cpSync(join(ROOT, 'api/contract'), join(src, 'contract'), {
      recursive: true,
      filter: (from) => !from.includes(`${join(ROOT, 'api/contract/server')}`),
    });
    cpSync(join(ROOT, 'api/checklist'), join(src, 'checklist'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    blocks.forEach((block, i) => writeFileSync(join(src, `readme-example-${i + 1}.ts`), asModule(block)));
    writeFileSync(join(src, 'type-expectations.ts'), TYPE_EXPECTATIONS);
    // The generated project's own settings, as the template ships them.
    const template = JSON.parse(readFileSync(join(ROOT, 'templates/app/tsconfig.json'), 'utf8')) as {
      compilerOptions: Record<string, unknown>;
    };
    const tsconfig = { compilerOptions: { ...template.compilerOptions, noEmit: true }, include: ['src'] };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const run = await promisify(execFile)(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: dir }).then(
      () => '',
      (error: Error & { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(run).toBe('');
  }, 90_000);
});
