/**
 * The OpenAPI builder, pure: with no reading, what the spec guarantees (every "not shown" point
 * open); narrowed, each point names the reading it was given; every endpoint, access rule and
 * code of the contract is in it and every reference resolves. The real tools check it in
 * openapi-tools.test.ts (redocly, newman) and prism-matrix.test.ts (Prism against sandboxes).
 */
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { API_KEY_HEADER, AUTH_SCHEMES, ENDPOINTS, ERROR_CODES, TENANT_RESOURCES } from '../../../api/contract/index.js';
import { READING_KEYS } from '../../../api/contract/readings.js';
import { RATE_LIMIT_STYLE_FIELDS, type Readings, sentErrors } from '../../../api/contract/server/index.js';
import { type OpenApiDocument, openApiDocument, serializeOpenApi } from '../../../api/openapi/index.js';
import { CHOICES, formatSetting, parseReadings } from '../../../sandbox/dialect/index.js';
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

const EITHER_KEY = AUTH_SCHEMES.map((s) => ({ [s]: [] }));

describe('openApiDocument with no reading: what API v1 guarantees', () => {
  const doc = openApiDocument({}, SERVERS);

  it('has every endpoint, GET only, /platform/* as templates and no invented sub-path', () => {
    const paths = Object.keys(doc.paths);
    expect(paths).toEqual([
      '/',
      '/docs',
      '/platform/{subpath}',
      '/platform/{section}/{subpath}',
      ...TENANT_RESOURCES.map((r) => `/tenants/{tenant}/${r}`),
    ]);
    for (const item of Object.values(doc.paths)) expect(Object.keys(item)).toEqual(['get']);
    expect(ENDPOINTS.filter((e) => e.id !== 'platform').every((e) => paths.includes(e.pathTemplate))).toBe(true);
  });

  it('takes / with or without a key, /docs without one, everything else with either key header', () => {
    expect(doc.components['securitySchemes']).toEqual({
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      'x-api-key': expect.objectContaining({ type: 'apiKey', in: 'header', name: API_KEY_HEADER }),
    });
    for (const [path, op] of operations(doc))
      expect(op['security'], path).toEqual(path === '/' ? [...EITHER_KEY, {}] : path === '/docs' ? [] : EITHER_KEY);
    // / documents its refusals too: with a key required, a missing or bad one is refused.
    expect(Object.keys(responses(doc.paths['/']!['get'] as Json))).toEqual(['401', '403', '429', '2XX', '4XX', '5XX']);
  });

  it('answers any 2XX on success, 429 everywhere (/docs too), any other 4XX in the envelope, 5XX', () => {
    for (const [path, op] of operations(doc)) {
      const statuses = Object.keys(responses(op));
      expect(statuses, path).not.toContain('200');
      for (const status of ['2XX', '429', '4XX', '5XX']) expect(statuses, path).toContain(status);
      const other = (responses(op)['4XX']!['content'] as Json)['application/json'] as Json;
      expect(other['schema'], path).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
    }
  });

  it('leaves the status of unauthorized open: 401 and 403 both carry it, and the code table calls the status a reading', () => {
    for (const [path, op] of operations(doc).filter(([p]) => p !== '/docs')) {
      expect(exampleCodes(responses(op)['401']!), path).toContain(ERROR_CODES.unauthorized);
      expect(exampleCodes(responses(op)['403']!), path).toContain(ERROR_CODES.unauthorized);
    }
    const table = String(((doc.components['schemas'] as Record<string, Json>)['ErrorCode'] as Json)['description']);
    expect(table).toContain('| `unauthorized` | 401 | ');
    expect(table).toContain('| `unauthorized` | 403 | ');
    expect(table).not.toMatch(/\| `unauthorized` \| \d+ \|[^|]*\| spec \|/);
    expect(table).toMatch(/\| `tenant_key_tenant_mismatch` \| 403 \|[^|]*\| spec \|/);
  });

  it('refuses a tenant key on /platform/* with 401, 403 or 404, and another tenant with 403 tenant_key_tenant_mismatch', () => {
    const platform = responses(doc.paths['/platform/{subpath}']!['get'] as Json);
    expect(exampleCodes(platform['404']!)).toContain(ERROR_CODES.notFound);
    expect(exampleCodes(platform['403']!)).toContain(ERROR_CODES.platformKeyRequired);
    const tenant = responses(doc.paths['/tenants/{tenant}/clients']!['get'] as Json);
    expect(exampleCodes(tenant['403']!)).toContain(ERROR_CODES.tenantMismatch);
  });

  it('has Retry-After as delta-seconds or an HTTP-date and asserts no other rate-limit field', () => {
    const headers = doc.components['headers'] as Record<string, Json>;
    expect(Object.keys(headers).sort()).toEqual(['link', 'retry-after', 'x-request-id']);
    const schema = headers['retry-after']!['schema'] as { anyOf: { pattern: string }[] };
    const [seconds, date] = schema.anyOf.map((s) => new RegExp(s.pattern));
    expect(seconds?.test('120')).toBe(true);
    expect(date?.test('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(true);
    expect(date?.test('120')).toBe(false);
  });

  it('takes any tenant slug of one or more characters (no invented maximum)', () => {
    const tenant = (doc.components['parameters'] as Record<string, Json>)['tenant'] as Json;
    expect(tenant['schema']).toEqual({ type: 'string', minLength: 1 });
  });

  it('names every open point in x-readings without a reading, and no error-bodies point', () => {
    for (const key of Object.values(READING_KEYS)) {
      expect(doc['x-readings'][key], key).toBeDefined();
      expect(doc['x-readings'][key], key).not.toHaveProperty('reading');
    }
    expect(doc['x-readings']).not.toHaveProperty('error-bodies');
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
      const ok = ((responses(op)['2XX'] as Json)['content'] as Json)['application/json'] as Json;
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
    const again = openApiDocument({}, SERVERS);
    expect(again).toEqual(doc);
    expect(again.paths).not.toBe(doc.paths);
    expect(JSON.parse(serializeOpenApi(doc, 'json'))).toEqual(doc);
    const yaml = serializeOpenApi(doc, 'yaml');
    expect(YAML.parse(yaml)).toEqual(doc);
    expect(yaml).toContain('2XX:');
    expect(yaml).not.toMatch(/[&*]a\d/);
  });
});

describe('openApiDocument in the reference readings', () => {
  const doc = openApiDocument(REFERENCE, SERVERS);

  it('has the configured /platform/ sub-paths and requires a key on / ', () => {
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/platform/'))).toEqual(['/platform/tenants', '/platform/keys']);
    expect(doc.paths['/']?.['get']).toMatchObject({ security: EITHER_KEY });
  });

  it('documents only codes the readings send, each under its status', () => {
    const codeSchema = (doc.components['schemas'] as Record<string, Json>)['ErrorCode'] as Json;
    expect(new Set(codeSchema['examples'] as string[])).toEqual(new Set(Object.values(ERROR_CODES)));
    const sent = new Set(sentErrors(REFERENCE).map((e) => `${e.status} ${e.code}`));
    for (const { code, status } of sentErrors(REFERENCE)) expect(codeSchema['description']).toContain(`| \`${code}\` | ${status} |`);
    for (const [path, op] of operations(doc))
      for (const [status, response] of Object.entries(responses(op)))
        for (const code of exampleCodes(response))
          if (status !== '4XX') expect(sent.has(`${status} ${code}`), `${path} ${status} ${code}`).toBe(true);
  });

  it("gives 429 the style's fields, tenant paths the mismatch and the assumed scope code", () => {
    const fields = RATE_LIMIT_STYLE_FIELDS[REFERENCE.rateLimitHeaders];
    for (const [path, op] of operations(doc)) {
      const tooMany = responses(op)['429'] as Json;
      const keyed = path === '/docs' ? [] : fields.everyAnswer;
      expect(Object.keys(tooMany['headers'] as Json).sort(), path).toEqual(['x-request-id', ...fields.on429, ...keyed].sort());
      if (path === '/docs') continue;
      expect(exampleCodes(responses(op)['401'] as Json), path).toEqual([ERROR_CODES.unauthorized]);
      if (path.startsWith('/tenants/'))
        expect(exampleCodes(responses(op)['403'] as Json), path).toEqual([ERROR_CODES.tenantMismatch, ERROR_CODES.insufficientScope]);
      if (path.startsWith('/platform/'))
        expect(exampleCodes(responses(op)['403'] as Json), path).toEqual([ERROR_CODES.platformKeyRequired, ERROR_CODES.insufficientScope]);
    }
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

  it("documents unauthorized at its status, the missing-key code, and only the dialect's /platform/ sub-paths", () => {
    for (const [path, op] of operations(doc).filter(([, o]) => (o['security'] as unknown[]).length > 0)) {
      const unauthorized = responses(op)[String(settings.unauthorizedStatus)] as Json;
      expect(exampleCodes(unauthorized), path).toEqual(expect.arrayContaining([ERROR_CODES.unauthorized, settings.missingKey]));
    }
    const platform = operations(doc).filter(([path]) => path.startsWith('/platform/'));
    expect(platform.map(([path]) => path)).toEqual(settings.platformPaths.map((sub) => `/platform/${sub}`));
    expect(doc.paths['/']?.['get']).toMatchObject({ security: settings.index === 'public' ? [] : EITHER_KEY });
  });
});

describe('openApiDocument narrowed in part', () => {
  it('index=unknown leaves / open in a preset; KEY=VALUE pairs alone narrow only their points', () => {
    const parsed = parseReadings('reference,index=unknown');
    if (!parsed.ok) throw new Error(parsed.error);
    const doc = openApiDocument(parsed.readings, SERVERS);
    expect(doc.paths['/']?.['get']).toMatchObject({ security: [...EITHER_KEY, {}] });
    expect(doc['x-readings']['index']).not.toHaveProperty('reading');
    const pairs = parseReadings('unauthorized-status=403');
    if (!pairs.ok) throw new Error(pairs.error);
    const narrowed = openApiDocument(pairs.readings, SERVERS);
    expect(narrowed['x-readings']['unauthorized-status']?.reading).toBe(403);
    expect(narrowed['x-readings']['slug']).not.toHaveProperty('reading');
    const tenant = responses(narrowed.paths['/tenants/{tenant}/clients']!['get'] as Json);
    expect(exampleCodes(tenant['403']!)).toContain(ERROR_CODES.unauthorized);
    expect(tenant).not.toHaveProperty('401');
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
