/**
 * api/client/README.md ships into every generated project as src/client/README.md, so its
 * examples must be true: every `ts` block is written to its own file in a temp project laid out
 * as a generated one (src/client, src/contract, src/checklist copied byte for byte) and
 * type-checked with the project's strict settings. A few type expectations ride along.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../import-rules.js';

const README = join(ROOT, 'api/client/README.md');

/** The `ts` fenced blocks of a markdown text, in order. */
export function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
}

/** Blocks that use the `client` of the first example get it declared, as the README says. */
function asModule(block: string): string {
  const needsClient = /\bclient\./.test(block) && !/\bconst client\b/.test(block);
  const prelude = needsClient ? "import type { RepairServiceClient } from './client/index.js';\ndeclare const client: RepairServiceClient;\n" : '';
  return `${prelude}${block}\nexport {};\n`;
}

/** Types the README promises, checked the same way (an unused @ts-expect-error fails too). */
const TYPE_EXPECTATIONS = `
import { z } from 'zod';
import { type ApiPromise, type ApiResponse, type NextStep, type Paginated, type ResourceList, createClient } from './client/index.js';

const Repair = z.object({ id: z.number() });
const client = createClient({ baseUrl: 'https://h/api/v1', apiKey: 'k', parse: { repairs: Repair } });
const repairs: ReadonlyArray<{ id: number }> = await client.listRepairs();
const bikes: ResourceList = await client.listBikes();
// @ts-expect-error items stay unknown until typed
const firstBike: { id: number } = bikes[0];
const guarded: readonly string[] = await client.listLogs({ parse: (v: unknown): v is string => typeof v === 'string' });
const promise: ApiPromise<ResourceList> = client.listClients();
const asPromise: Promise<ResourceList> = promise;
const response: ApiResponse = (await promise.withResponse()).response;
const paged: Paginated<{ id: number }> = client.paginate.repairs();
const pagedLogs: Paginated<string> = client.paginate.logs({ parse: z.string() });
const step: NextStep['kind'] = 'use_platform_key';
// @ts-expect-error a query value must be text, a number, a boolean or a list of them
client.listClients({ query: { when: new Date() } });
// @ts-expect-error a parse hook must be a schema or a type guard
client.listClients({ parse: 42 });
export { repairs, firstBike, guarded, asPromise, response, paged, pagedLogs, step };
`;

describe('api/client/README.md', () => {
  const dir = mkdtempSync(join(tmpdir(), 'client-readme-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has an example for each feature', () => {
    const text = readFileSync(README, 'utf8');
    for (const feature of ['parse: RepairSchema', 'parse: isBike', '.withResponse()', 'query: {', "client.get('", 'client.paginate.', '.pages()', 'nextStep(error)', 'pino(', 'logger: console', 'REPAIR_API_LOG=debug', 'ca: readFileSync']) {
      expect(text, feature).toContain(feature);
    }
  });

  it('every ts block type-checks next to the shipped folders, strict', async () => {
    const blocks = tsBlocks(readFileSync(README, 'utf8'));
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    const src = join(dir, 'src');
    mkdirSync(src, { recursive: true });
    cpSync(join(ROOT, 'api/client'), join(src, 'client'), { recursive: true });
    cpSync(join(ROOT, 'api/contract'), join(src, 'contract'), { recursive: true, filter: (from) => !from.includes(`${join(ROOT, 'api/contract/server')}`) });
    cpSync(join(ROOT, 'api/checklist'), join(src, 'checklist'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    blocks.forEach((block, i) => writeFileSync(join(src, `readme-example-${i + 1}.ts`), asModule(block)));
    writeFileSync(join(src, 'type-expectations.ts'), TYPE_EXPECTATIONS);
    // The generated project's own settings, as the template ships them.
    const template = JSON.parse(readFileSync(join(ROOT, 'templates/app/tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
    const tsconfig = { compilerOptions: { ...template.compilerOptions, noEmit: true }, include: ['src'] };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const run = await promisify(execFile)(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: dir }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(run).toBe('');
  }, 90_000);
});
