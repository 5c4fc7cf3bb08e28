/**
 * `repairmon openapi`: writes the OpenAPI 3.1 document of API v1, built from the contract. With
 * no `--dialect`, what the spec guarantees (every "not shown" point open); with one, narrowed to
 * a preset, to `KEY=VALUE` readings, or to what `repairmon discover --json` learned (`@FILE`,
 * `@-` for stdin). To stdout, or with `--out` to a file that appears complete or not at all.
 */
import { readFile } from 'node:fs/promises';
import { OPENAPI_FORMATS, type OpenApiFormat, openApiDocument, serializeOpenApi } from '../../api/openapi/index.js';
import { dialectOfReport } from '../../discover/index.js';
import { PLACEHOLDER_PRODUCTION_BASE_URL } from '../../generators/entry.js';
import { PRESET_NAMES, type ReadingsParse, SANDBOX_DEFAULT_BASE_URL, parseReadings, replaceFile } from '../../sandbox/index.js';
import { type Command, type CommandContext, UsageError, choiceValue, stringValue } from '../command.js';

function formatFlag(values: CommandContext['values'], out: string | undefined): OpenApiFormat {
  const given = choiceValue(values, 'format', OPENAPI_FORMATS);
  if (given !== undefined) return given;
  return out !== undefined && /\.ya?ml$/i.test(out) ? 'yaml' : 'json';
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** `@FILE` / `@-`: the readings a discovery report learned; the rest stay open. */
async function discovered(ctx: CommandContext, source: string): Promise<ReadingsParse> {
  const name = source === '-' ? 'stdin' : source;
  const text = await (source === '-' ? readAll(ctx.stdin) : readFile(source, 'utf8')).catch((error: unknown) => {
    throw new UsageError(`--dialect: cannot read ${name} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  });
  const pairs = dialectOfReport(text);
  if (!pairs.ok) throw new UsageError(`--dialect: ${name} ${pairs.error}`);
  const parsed = parseReadings(pairs.pairs.join(','));
  return parsed.ok ? { ...parsed, name: `discovered in ${name}: ${parsed.name}` } : parsed;
}

async function readings(ctx: CommandContext): Promise<ReadingsParse> {
  const given = stringValue(ctx.values, 'dialect');
  if (given === undefined) return parseReadings('');
  if (given.startsWith('@')) return discovered(ctx, given.slice(1));
  const parsed = parseReadings(given);
  if (!parsed.ok && /\.json$/i.test(given)) return { ok: false, error: `${parsed.error} (a discovery report is read as @${given})` };
  return parsed;
}

const command: Command = {
  name: 'openapi',
  docs: 'docs/integrators.md',
  trapsSignals: false,
  options: {
    dialect: {
      type: 'string',
      valueName: 'SPEC',
      description: `narrow the document of what the spec guarantees (the default: every "not shown" point open) to readings: a preset (${PRESET_NAMES.join(', ')}) with optional KEY=VALUE overrides; KEY=VALUE pairs alone (only those points, index=unknown leaves / open); or @FILE / @- (stdin) with what repairmon discover --json printed. Keys in repairmon sandbox --help`,
    },
    format: {
      type: 'string',
      valueName: 'json|yaml',
      description: 'output format (default: yaml for an --out ending in .yaml or .yml, else json)',
    },
    out: { type: 'string', valueName: 'FILE', description: 'write the document to FILE (replaced whole) instead of stdout' },
  },
  async run(ctx) {
    const out = stringValue(ctx.values, 'out');
    if (out?.trim() === '') throw new UsageError('--out must not be empty');
    const format = formatFlag(ctx.values, out);
    const parsed = await readings(ctx);
    if (!parsed.ok) throw new UsageError(`--dialect: ${parsed.error}`);
    const document = openApiDocument(parsed.readings, { test: SANDBOX_DEFAULT_BASE_URL, production: PLACEHOLDER_PRODUCTION_BASE_URL });
    const text = serializeOpenApi(document, format);
    if (out === undefined) {
      ctx.stdout.write(text);
      return 0;
    }
    // Written beside the target and renamed over it, so a reader never sees half a document.
    await replaceFile(out, text, 0o666).catch((error: unknown) => {
      throw new UsageError(`--out: cannot write ${out} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    });
    ctx.stderr.write(`wrote ${out} (OpenAPI 3.1, ${format}, readings: ${parsed.name})\n`);
    return 0;
  },
};

export default command;
