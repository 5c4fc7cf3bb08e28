/** The document as a file: JSON, or YAML for people who read it. */
import YAML from 'yaml';
import type { OpenApiDocument } from './types.js';

export const OPENAPI_FORMATS = ['json', 'yaml'] as const;
export type OpenApiFormat = (typeof OPENAPI_FORMATS)[number];

export function serializeOpenApi(document: OpenApiDocument, format: OpenApiFormat): string {
  if (format === 'json') return `${JSON.stringify(document, null, 2)}\n`;
  // No anchors and aliases (OpenAPI tools read plain YAML best), no folded long lines.
  return YAML.stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 });
}
