/** The few shapes the builder passes around: plain JSON objects, as an OpenAPI document is. */

export type JsonObject = { [key: string]: unknown };

export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: JsonObject;
  readonly servers: readonly JsonObject[];
  readonly security: readonly JsonObject[];
  readonly tags: readonly JsonObject[];
  readonly paths: Readonly<Record<string, JsonObject>>;
  readonly components: JsonObject;
  /** One entry per "not shown" point of the spec: the reading this document describes. */
  readonly 'x-readings': Readonly<Record<string, ReadingNote>>;
}

export interface ReadingNote {
  /** What the spec leaves open, and where. */
  readonly notShown: string;
  /** The reading this document describes. */
  readonly reading: unknown;
  /** The readings a faithful API may follow (`repairmon sandbox --dialect` speaks each). */
  readonly readings: readonly unknown[] | string;
}

/** `#/components/<kind>/<name>` as an OpenAPI reference object. */
export function ref(
  kind: 'schemas' | 'parameters' | 'headers' | 'responses',
  name: string,
): JsonObject {
  return { $ref: `#/components/${kind}/${name}` };
}
