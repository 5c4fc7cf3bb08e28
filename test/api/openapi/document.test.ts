/**
 * The OpenAPI builder, pure: every endpoint, access rule and error code of the contract is in
 * the document, each "not shown" point names the reading it was given, and every reference
 * resolves. The real tools (redocly, Prism, newman) check it in openapi-tools.test.ts.
 */
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { API_KEY_HEADER, AUTH_SCHEMES, ENDPOINTS, ERROR_CODES, HANDLED_STATUSES, TENANT_RESOURCES } from '../../../api/contract/index.js';
import { RATE_LIMIT_STYLE_FIELDS, type Readings, sentErrors } from '../../../api/contract/server/index.js';
import { type OpenApiDocument, openApiDocument, serializeOpenApi } from '../../../api/openapi/index.js';
import { CHOICES, formatSetting } from '../../../sandbox/dialect/index.js';
import { PRESET_TABLE } from '../../helpers/dialect-presets.js';

const SERVERS = { test: 'http://127.0.0.1:4010/api/v1', production: 'https://api.example.test/api/v1' };
const REFERENCE = PRESET_TABLE['reference'] as Readings;

type Json = Record<string, unknown>;

function operations(doc: OpenApiDocument): [string, Json][] {
  return Object.entries(doc.paths).map(([path, item]) => [path, item['get'] as Json]);
}

function responses(op: Json): Record<string, Json> {
  return op['responses'] as Record<string, Json>;
}

function exampleCodes(response: Json): string[] {
  const json = (response['content'] as Json)['application/json'] as Json | undefined;
  return Object.keys(json?.['examples'] ?? {});
}

/** Every `$ref` in the document, and every component, as `#/components/kind/name`. */
function refsAndComponents(doc: OpenApiDocument): { refs: Set<string>; components: Set<string> } {
  const refs = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value))
        if (key === '$ref' && typeof inner === 'string') refs.add(inner);
        else visit(inner);
    }
  };
  visit(doc);
  const components = new Set(
    Object.entries(doc.components)
      .filter(([kind]) => kind !== 'securitySchemes')
      .flatMap(([kind, group]) => Object.keys(group as Json).map((name) => `#/components/${kind}/${name}`)),
  );
  return { refs, components };
}

describe('openApiDocument in the reference readings', () => {
  const doc = openApiDocument(REFERENCE, SERVERS);

  it('has every endpoint of the contract, GET only, with the configured /platform/ sub-paths', () => {
    const paths = Object.keys(doc.paths);
    expect(paths).toEqual(['/', '/docs', '/platform/tenants', '/platform/keys', ...TENANT_RESOURCES.map((r) => `/tenants/{tenant}/${r}`)]);
    for (const item of Object.values(doc.paths)) expect(Object.keys(item)).toEqual(['get']);
    expect(ENDPOINTS.filter((e) => e.id !== 'platform').every((e) => paths.includes(e.pathTemplate))).toBe(true);
    for (const [path, op] of operations(doc)) {
      const params = (op['parameters'] ?? []) as Json[];
      expect(params, path).toEqual(path.includes('{tenant}') ? [{ $ref: '#/components/parameters/tenant' }] : []);
    }
  });

  it('names both key headers as security schemes, required everywhere but /docs', () => {
    expect(doc.components['securitySchemes']).toEqual({
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      'x-api-key': expect.objectContaining({ type: 'apiKey', in: 'header', name: API_KEY_HEADER }),
    });
    const either = AUTH_SCHEMES.map((s) => ({ [s]: [] }));
    for (const [path, op] of operations(doc)) expect(op['security'], path).toEqual(path === '/docs' ? [] : either);
  });

  it('documents every error code of the contract with its status, and only those', () => {
    const codeSchema = (doc.components['schemas'] as Record<string, Json>)['ErrorCode'] as Json;
    expect(new Set(codeSchema['examples'] as string[])).toEqual(new Set(Object.values(ERROR_CODES)));
    for (const { code, status } of sentErrors(REFERENCE)) expect(codeSchema['description']).toContain(`| \`${code}\` | ${status} |`);
    const sent = new Set(sentErrors(REFERENCE).map((e) => `${e.status} ${e.code}`));
    for (const [path, op] of operations(doc)) {
      for (const [status, response] of Object.entries(responses(op))) {
        for (const code of exampleCodes(response)) expect(sent.has(`${status} ${code}`), `${path} ${status} ${code}`).toBe(true);
      }
    }
  });

  it('gives each keyed operation 401, 403 and 429, tenant paths the mismatch, and 429 its rate-limit fields', () => {
    const fields = RATE_LIMIT_STYLE_FIELDS[REFERENCE.rateLimitHeaders];
    for (const [path, op] of operations(doc)) {
      const statuses = Object.keys(responses(op));
      if (path === '/docs') {
        expect(statuses).toEqual(['200', '5XX']);
        continue;
      }
      for (const status of HANDLED_STATUSES) expect(statuses, path).toContain(String(status));
      const tooMany = responses(op)['429'] as Json;
      expect(Object.keys(tooMany['headers'] as Json).sort(), path).toEqual(['x-request-id', ...fields.on429, ...fields.everyAnswer].sort());
      expect(exampleCodes(responses(op)['401'] as Json), path).toEqual([ERROR_CODES.unauthorized]);
      if (path.startsWith('/tenants/'))
        expect(exampleCodes(responses(op)['403'] as Json), path).toEqual([ERROR_CODES.tenantMismatch, ERROR_CODES.insufficientScope]);
      if (path.startsWith('/platform/'))
        expect(exampleCodes(responses(op)['403'] as Json), path).toEqual([ERROR_CODES.platformKeyRequired, ERROR_CODES.insufficientScope]);
    }
  });

  it('has the envelope as schemas: data required on success, an array on lists, code and message on errors', () => {
    const schemas = doc.components['schemas'] as Record<string, Json>;
    expect(schemas['SuccessEnvelope']).toMatchObject({ required: ['ok', 'data'], properties: { ok: { const: true } } });
    expect(schemas['ListEnvelope']).toMatchObject({
      required: ['ok', 'data'],
      properties: { ok: { const: true }, data: { type: 'array' } },
    });
    expect(schemas['ErrorEnvelope']).toMatchObject({ required: ['ok', 'error'], properties: { ok: { const: false } } });
    expect(schemas['ErrorBody']).toMatchObject({ required: ['code', 'message'] });
    for (const [path, op] of operations(doc)) {
      const ok = ((responses(op)['200'] as Json)['content'] as Json)['application/json'] as Json;
      expect(ok['schema'], path).toEqual({
        $ref: `#/components/schemas/${path.startsWith('/tenants/') ? 'ListEnvelope' : 'SuccessEnvelope'}`,
      });
    }
  });

  it('has test and production servers as a base_url variable, and every reference resolves to a component that is used', () => {
    expect(doc.servers.map((s) => (s['variables'] as Json)['base_url'])).toEqual([
      expect.objectContaining({ default: SERVERS.test }),
      expect.objectContaining({ default: SERVERS.production }),
    ]);
    const { refs, components } = refsAndComponents(doc);
    expect(refs).toEqual(components);
  });

  it('is a fresh plain object on every call, and its YAML reads back as the same document', () => {
    const again = openApiDocument(REFERENCE, SERVERS);
    expect(again).toEqual(doc);
    expect(again.paths).not.toBe(doc.paths);
    expect(JSON.parse(serializeOpenApi(doc, 'json'))).toEqual(doc);
    const yaml = serializeOpenApi(doc, 'yaml');
    expect(YAML.parse(yaml)).toEqual(doc);
    expect(yaml).toContain('"200":');
    expect(yaml).not.toMatch(/[&*]a\d/);
  });
});

describe.each(Object.entries(PRESET_TABLE))('openApiDocument in dialect %s', (name, settings) => {
  const doc = openApiDocument(settings, SERVERS);

  it('names the reading of every dialect key in x-readings', () => {
    for (const choice of CHOICES) {
      const note = doc['x-readings'][choice.key];
      const reading = Array.isArray(note?.reading) ? note.reading.join('+') : String(note?.reading);
      expect(`${choice.key}=${reading}`, name).toBe(formatSetting(choice, settings));
    }
  });

  it('documents exactly the codes the readings send, with their statuses and body forms', () => {
    const codeSchema = (doc.components['schemas'] as Record<string, Json>)['ErrorCode'] as Json;
    expect(new Set(codeSchema['examples'] as string[])).toEqual(new Set(sentErrors(settings).map((e) => e.code)));
    const keyed = operations(doc).filter(([, op]) => (op['security'] as unknown[]).length > 0);
    expect(keyed.length).toBeGreaterThan(0);
    for (const [path, op] of keyed) {
      const unauthorized = responses(op)[String(settings.unauthorizedStatus)] as Json;
      expect(exampleCodes(unauthorized).length === 0 ? 'plain' : exampleCodes(unauthorized), path).toEqual(
        settings.errorBodies === 'plain' && settings.unauthorizedStatus === 401
          ? 'plain'
          : expect.arrayContaining([ERROR_CODES.unauthorized, settings.missingKey]),
      );
      const tooMany = (responses(op)['429'] as Json)['content'] as Json;
      expect(Object.keys(tooMany), path).toEqual([settings.errorBodies === 'plain' ? 'text/plain' : 'application/json']);
    }
    const platform = operations(doc).filter(([path]) => path.startsWith('/platform/'));
    expect(platform.map(([path]) => path)).toEqual(settings.platformPaths.map((sub) => `/platform/${sub}`));
  });

  it('marks / as public or keyed as the index reading says', () => {
    expect(doc.paths['/']?.['get']).toMatchObject({ security: settings.index === 'public' ? [] : AUTH_SCHEMES.map((s) => ({ [s]: [] })) });
  });
});

describe('openApiDocument where a reading is not known', () => {
  it('makes the key optional on / and writes /platform/ as a template when no sub-path is known', () => {
    const doc = openApiDocument({ ...REFERENCE, index: 'unknown', platformPaths: [] }, SERVERS);
    expect(doc.paths['/']?.['get']).toMatchObject({ security: [{}, ...AUTH_SCHEMES.map((s) => ({ [s]: [] }))] });
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/platform/'))).toEqual(['/platform/{path}']);
    expect(doc.paths['/platform/{path}']?.['get']).toMatchObject({ parameters: [{ $ref: '#/components/parameters/platformPath' }] });
    expect(exampleCodes(responses(doc.paths['/platform/{path}']?.['get'] as Json)['404'] as Json)).toEqual([ERROR_CODES.notFound]);
    const { refs, components } = refsAndComponents(doc);
    expect(refs).toEqual(components);
  });

  it('refuses a /platform/ sub-path that cannot be one, naming it', () => {
    expect(() => openApiDocument({ ...REFERENCE, platformPaths: ['../keys'] }, SERVERS)).toThrow(
      'platformPaths: "../keys" cannot contain "." or ".." segments',
    );
    expect(() => openApiDocument({ ...REFERENCE, platformPaths: ['{x}'] }, SERVERS)).toThrow(
      'platformPaths: "{x}" cannot contain "{" or "}"',
    );
  });
});
