/**
 * The OpenAPI 3.1 document of API v1, built from the contract: with no reading given, what API
 * v1 guarantees (every "not shown" point left open); with readings, narrowed to them. Readings
 * in, a plain object out, no I/O. Every path, access rule, auth header, error code and envelope
 * rule comes from `api/contract`; nothing here restates them.
 */
import {
  API_KEY_HEADER,
  API_VERSION,
  AUTH_SCHEMES,
  type AuthScheme,
  ENDPOINTS,
  ENVIRONMENTS,
  type EndpointSpec,
  type Environment,
} from '../contract/index.js';
import { type SlugStyle, platformSubPath } from '../contract/readings.js';
import { indexReading } from './possible.js';
import { readingNotes } from './readings-note.js';
import { needsKey, operationResponses } from './responses.js';
import { envelopeSchemas, headerComponents } from './schemas.js';
import { type DocumentReadings, type JsonObject, type OpenApiDocument, ref } from './types.js';

/** The base address of each environment (spec §5.8: separate test and production keys). */
export type OpenApiServers = Readonly<Record<Environment, string>>;

const SERVER_TEXT: Readonly<Record<Environment, string>> = {
  test: 'Test environment: use a test key.',
  production:
    'Production: switch to a production key once the integration is validated (spec §5.8).',
};

const SCHEME_OBJECTS: Readonly<Record<AuthScheme, JsonObject>> = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'The API key as `Authorization: Bearer <API_KEY>` (spec §5, way 2).',
  },
  'x-api-key': {
    type: 'apiKey',
    in: 'header',
    name: API_KEY_HEADER,
    description: 'The API key in the `x-api-key` header (spec §5, way 1).',
  },
};

const SLUG_EXAMPLES: Readonly<Record<SlugStyle, string>> = {
  kebab: 'rowery-nowak',
  snake: 'rowery_nowak',
  any: 'rowery-nowak',
};

const TAGS = [
  { name: 'informational', description: 'The index and the documentation (spec §4).' },
  {
    name: 'platform',
    description: 'Administration of the whole platform: platform keys only (spec §4.2).',
  },
  {
    name: 'tenant',
    description:
      "One tenant's data: a platform key, or a tenant key assigned to that tenant (spec §4.3).",
  },
];

/** Either key header; both carry the same key (spec §5). */
const A_KEY = AUTH_SCHEMES.map((scheme) => ({ [scheme]: [] }));

function security(endpoint: EndpointSpec, readings: DocumentReadings): JsonObject[] {
  if (!needsKey(endpoint, readings)) return [];
  // With the index left open a call to / may also go without a key: `{}` comes last, since
  // tools that pick one alternative (a Postman import) take the first, and a key always works.
  return endpoint.access === 'any_key' && indexReading(readings) === undefined
    ? [...A_KEY, {}]
    : A_KEY;
}

function tag(endpoint: EndpointSpec): string {
  if (endpoint.access === 'platform' || endpoint.access === 'tenant') return endpoint.access;
  return 'informational';
}

function camel(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== '')
    .map((part) => `${part[0]?.toUpperCase() ?? ''}${part.slice(1)}`)
    .join('');
}

interface Route {
  readonly path: string;
  readonly endpoint: EndpointSpec;
  readonly operationId: string;
  readonly summary?: string;
  /** A `/platform/` template: no sub-path is known. */
  readonly template?: readonly string[];
}

/**
 * With the sub-paths open, `/platform/*` as templates: an OpenAPI path parameter matches one
 * segment, so one template per depth (the sandbox's dialects use one and two).
 */
const PLATFORM_TEMPLATES: readonly (readonly string[])[] = [['subpath'], ['section', 'subpath']];

function platformRoutes(endpoint: EndpointSpec, readings: DocumentReadings): Route[] {
  const given = readings.platformPaths ?? [];
  if (given.length === 0)
    return PLATFORM_TEMPLATES.map((names) => ({
      path: `/platform/${names.map((n) => `{${n}}`).join('/')}`,
      endpoint,
      operationId: `getPlatform${names.map(camel).join('')}`,
      summary: `${endpoint.returns}: a /platform/ sub-path of ${names.length} segment${names.length > 1 ? 's' : ''} (the spec shows none)`,
      template: names,
    }));
  return given.map((sub) => {
    const check = platformSubPath(sub);
    if (!check.ok) throw new Error(`platformPaths: "${sub}" ${check.reason}`);
    if (/[{}]/.test(check.sub))
      throw new Error(`platformPaths: "${sub}" cannot contain "{" or "}"`);
    return {
      path: `/platform/${check.sub}`,
      endpoint,
      operationId: `getPlatform${camel(check.sub)}`,
      summary: `${endpoint.returns}: /platform/${check.sub}`,
    };
  });
}

function routes(readings: DocumentReadings): Route[] {
  const all = ENDPOINTS.flatMap((endpoint): Route[] => {
    if (endpoint.access === 'platform') return platformRoutes(endpoint, readings);
    return [
      {
        path: endpoint.pathTemplate,
        endpoint,
        operationId: `${endpoint.list ? 'list' : 'get'}${camel(endpoint.id)}`,
      },
    ];
  });
  // Two sub-paths that differ only in punctuation (`a-b`, `a.b`) would share an id.
  return all.map((route, i) =>
    all.findIndex((r) => r.operationId === route.operationId) === i
      ? route
      : { ...route, operationId: `${route.operationId}${i}` },
  );
}

function parameters(route: Route): JsonObject[] {
  if (route.template) return route.template.map((name) => ref('parameters', name));
  return route.endpoint.access === 'tenant' ? [ref('parameters', 'tenant')] : [];
}

function operation(route: Route, readings: DocumentReadings): JsonObject {
  const { endpoint } = route;
  const params = parameters(route);
  return {
    operationId: route.operationId,
    summary: route.summary ?? endpoint.returns,
    tags: [tag(endpoint)],
    security: security(endpoint, readings),
    ...(params.length > 0 ? { parameters: params } : {}),
    responses: operationResponses(endpoint, readings, route.template !== undefined),
  };
}

function parameterComponents(
  readings: DocumentReadings,
  template: boolean,
): Record<string, JsonObject> {
  const style =
    readings.slug === undefined
      ? 'not shown'
      : `not shown; this document's reading: ${readings.slug}`;
  const tenant = {
    name: 'tenant',
    in: 'path',
    required: true,
    description: `Tenant slug: one repair shop, compared with the tenant of the key (spec §2). Its format is ${style}.`,
    schema: { type: 'string', minLength: 1 },
    example: SLUG_EXAMPLES[readings.slug ?? 'kebab'],
  };
  const segment = (name: string, what: string): JsonObject => ({
    name,
    in: 'path',
    required: true,
    description: `${what} below /platform/: the spec shows none (§4); the API's /docs may list them.`,
    schema: { type: 'string', minLength: 1 },
  });
  return {
    tenant,
    ...(template
      ? {
          section: segment('section', 'The first segment of a sub-path'),
          subpath: segment('subpath', 'A sub-path segment'),
        }
      : {}),
  };
}

const ABOUT = {
  open: 'This document holds for any API that follows the spec: where the spec says "not shown", every reading is left open (`x-readings` lists them). Narrow it with `repairmon openapi --dialect`.',
  narrowed:
    'Narrowed to the readings in `x-readings` (a `reading` on a point); points without one are left open. The document of what the spec guarantees: `repairmon openapi` with no `--dialect`.',
};

export function openApiDocument(
  readings: DocumentReadings,
  servers: OpenApiServers,
): OpenApiDocument {
  const narrowed = Object.values(readings).some((v) => v !== undefined && v !== 'unknown');
  const all = routes(readings);
  const paths = Object.fromEntries(
    all.map((route) => [route.path, { get: operation(route, readings) }]),
  );
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: 'Repair-Service Integration API',
      version: API_VERSION,
      description: [
        'Read-only API of a multi-tenant platform for bicycle repair shops. Every answer is JSON in one envelope; error messages are in Polish.',
        narrowed ? ABOUT.narrowed : ABOUT.open,
      ].join('\n\n'),
    },
    servers: ENVIRONMENTS.map((env) => ({
      url: '{base_url}',
      description: SERVER_TEXT[env],
      variables: {
        base_url: {
          default: servers[env],
          description: `The ${env} base address, ending in /api/v1 (spec §9.1).`,
        },
      },
    })),
    security: A_KEY,
    tags: TAGS,
    paths,
    components: {
      securitySchemes: { ...SCHEME_OBJECTS },
      parameters: parameterComponents(
        readings,
        all.some((r) => r.template !== undefined),
      ),
      headers: headerComponents(readings),
      schemas: envelopeSchemas(readings),
    },
    'x-readings': readingNotes(readings),
  };
  // Fresh objects throughout: a caller may change its copy without touching another's.
  return structuredClone(document);
}
