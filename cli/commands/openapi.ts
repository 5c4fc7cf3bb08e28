/**
 * `repairmon openapi`: writes the OpenAPI 3.1 document of API v1, built from the contract,
 * under one dialect's readings of the spec's "not shown" points (the sandbox's reference by
 * default). To stdout, or with `--out` to a file that appears complete or not at all.
 */
import { OPENAPI_FORMATS, type OpenApiFormat, openApiDocument, serializeOpenApi } from '../../api/openapi/index.js';
import { PLACEHOLDER_PRODUCTION_BASE_URL } from '../../generators/entry.js';
import { DEFAULT_DIALECT, PRESET_NAMES, SANDBOX_DEFAULT_BASE_URL, parseDialect, replaceFile } from '../../sandbox/index.js';
import { type Command, type CommandContext, UsageError, choiceValue, stringValue } from '../command.js';

function formatFlag(values: CommandContext['values'], out: string | undefined): OpenApiFormat {
  const given = choiceValue(values, 'format', OPENAPI_FORMATS);
  if (given !== undefined) return given;
  return out !== undefined && /\.ya?ml$/i.test(out) ? 'yaml' : 'json';
}

const command: Command = {
  name: 'openapi',
  summary: 'write the OpenAPI 3.1 document of API v1, for Postman, Insomnia, Prism or codegen',
  docs: 'docs/integrators.md',
  trapsSignals: false,
  options: {
    dialect: {
      type: 'string',
      valueName: 'SPEC',
      description: `the readings of the spec's "not shown" points to describe, as repairmon sandbox --dialect takes them: a preset (${PRESET_NAMES.join(', ')}), then KEY=VALUE overrides; keys in repairmon sandbox --help`,
      default: DEFAULT_DIALECT,
    },
    format: {
      type: 'string',
      valueName: 'json|yaml',
      description: 'output format (default: yaml for an --out ending in .yaml or .yml, else json)',
    },
    out: { type: 'string', valueName: 'FILE', description: 'write the document to FILE (replaced whole) instead of stdout' },
  },
  async run(ctx) {
    const parsed = parseDialect(stringValue(ctx.values, 'dialect') ?? DEFAULT_DIALECT);
    if (!parsed.ok) throw new UsageError(`--dialect: ${parsed.error}`);
    const out = stringValue(ctx.values, 'out');
    if (out?.trim() === '') throw new UsageError('--out must not be empty');
    const format = formatFlag(ctx.values, out);
    const document = openApiDocument(parsed.dialect, { test: SANDBOX_DEFAULT_BASE_URL, production: PLACEHOLDER_PRODUCTION_BASE_URL });
    const text = serializeOpenApi(document, format);
    if (out === undefined) {
      ctx.stdout.write(text);
      return 0;
    }
    // Written beside the target and renamed over it, so a reader never sees half a document.
    await replaceFile(out, text, 0o666).catch((error: unknown) => {
      throw new UsageError(`--out: cannot write ${out} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    });
    ctx.stderr.write(`wrote ${out} (OpenAPI 3.1, ${format}, dialect ${parsed.dialect.name})\n`);
    return 0;
  },
};

export default command;
