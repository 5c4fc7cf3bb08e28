/**
 * The OpenAPI 3.1 document of API v1, built from the contract under one reading of each "not
 * shown" point: readings in, a plain object out, no I/O. Every path, access rule, auth header,
 * error code and envelope rule comes from `api/contract`; nothing here restates them.
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
  TENANT_SLUG_MAX_LENGTH,
} from '../contract/index.js';
import { type SlugStyle, platformSubPath } from '../contract/readings.js';
import type { Readings } from '../contract/server/index.js';
import { readingNotes } from './readings-note.js';
import { needsKey, operationResponses } from './responses.js';
import { envelopeSchemas, headerComponents } from './schemas.js';
import { type JsonObject, type OpenApiDocument, ref } from './types.js';

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

function security(endpoint: EndpointSpec, readings: Readings): JsonObject[] {
  if (!needsKey(endpoint, readings)) return [];
  // `{}` first: with `index=unknown` a call to / may go without a key.
  return endpoint.access === 'any_key' && readings.index === 'unknown' ? [{}, ...A_KEY] : A_KEY;
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
  /** `/platform/{path}`: no sub-path is known. */
  readonly template?: boolean;
}

function platformRoutes(endpoint: EndpointSpec, readings: Readings): Route[] {
  if (readings.platformPaths.length === 0)
    return [{ path: '/platform/{path}', endpoint, operationId: 'getPlatformPath', template: true }];
  return readings.platformPaths.map((given) => {
    const check = platformSubPath(given);
    if (!check.ok) throw new Error(`platformPaths: "${given}" ${check.reason}`);
    if (/[{}]/.test(check.sub))
      throw new Error(`platformPaths: "${given}" cannot contain "{" or "}"`);
    return {
      path: `/platform/${check.sub}`,
      endpoint,
      operationId: `getPlatform${camel(check.sub)}`,
      summary: `${endpoint.returns}: /platform/${check.sub}`,
    };
  });
}

function routes(readings: Readings): Route[] {
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
  if (route.template) return [ref('parameters', 'platformPath')];
  return route.endpoint.access === 'tenant' ? [ref('parameters', 'tenant')] : [];
}

function operation(route: Route, readings: Readings): JsonObject {
  const { endpoint } = route;
  const params = parameters(route);
  return {
    operationId: route.operationId,
    summary: route.summary ?? endpoint.returns,
    tags: [tag(endpoint)],
    security: security(endpoint, readings),
    ...(params.length > 0 ? { parameters: params } : {}),
    responses: operationResponses(endpoint, readings, route.template === true),
  };
}

function parameterComponents(readings: Readings, template: boolean): Record<string, JsonObject> {
  const tenant = {
    name: 'tenant',
    in: 'path',
    required: true,
    description: `Tenant slug: one repair shop, compared with the tenant of the key (spec §2). Its format is not shown; under these readings: ${readings.slug}.`,
    schema: { type: 'string', minLength: 1, maxLength: TENANT_SLUG_MAX_LENGTH },
    example: SLUG_EXAMPLES[readings.slug],
  };
  const platformPath = {
    name: 'path',
    in: 'path',
    required: true,
    description:
      "A sub-path below /platform/: the spec shows none; configure them (the API's /docs may list them).",
    schema: { type: 'string', minLength: 1 },
  };
  return { tenant, ...(template ? { platformPath } : {}) };
}

export function openApiDocument(readings: Readings, servers: OpenApiServers): OpenApiDocument {
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
        'Written from the toolkit\'s contract; where the spec says "not shown", this document follows the readings in `x-readings`.',
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
        all.some((r) => r.template),
      ),
      headers: headerComponents(readings),
      schemas: envelopeSchemas(readings),
    },
    'x-readings': readingNotes(readings),
  };
  // Fresh objects throughout: a caller may change its copy without touching another's.
  return structuredClone(document);
}
