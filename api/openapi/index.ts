/**
 * The OpenAPI 3.1 document of API v1, built from `api/contract`: what the spec guarantees, or
 * narrowed to readings of its "not shown" points (`repairmon openapi`; generated projects ship it).
 */
export { type OpenApiServers, openApiDocument } from './document.js';
export { OPENAPI_FORMATS, type OpenApiFormat, serializeOpenApi } from './serialize.js';
export type { OpenApiDocument } from './types.js';
