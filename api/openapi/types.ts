/** The few shapes the builder passes around: plain JSON objects, as an OpenAPI document is. */
import type { Readings } from '../contract/server/index.js';

/**
 * The readings a document narrows to: a point left out (and `index: 'unknown'`) stays open,
 * described as every reading allows. `{}` is the document of what API v1 guarantees.
 */
export type DocumentReadings = { readonly [K in keyof Readings]?: Readings[K] };

export type JsonObject = { [key: string]: unknown };

export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: JsonObject;
  readonly servers: readonly JsonObject[];
  readonly security: readonly JsonObject[];
  readonly tags: readonly JsonObject[];
  readonly paths: Readonly<Record<string, JsonObject>>;
  readonly components: JsonObject;
  /** One entry per "not shown" point of the spec: the reading this document narrows it to, if any. */
  readonly 'x-readings': Readonly<Record<string, ReadingNote>>;
}

export interface ReadingNote {
  /** What the spec leaves open, and where. */
  readonly notShown: string;
  /** The reading this document narrows the point to; absent: left open (every reading holds). */
  readonly reading?: unknown;
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
