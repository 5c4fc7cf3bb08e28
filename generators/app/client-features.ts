/**
 * What the client being shipped can do, read from its files when a project is rendered, so
 * the integrator's files (rendered once, then theirs) use a feature only when the toolkit code
 * beside them has it. A feature not found falls back to code that works without it.
 */
import type { RenderedFile } from './render.js';

export interface ClientFeatures {
  /** `createClient({ ca })`: the client trusts a private CA on its own connections. */
  readonly ca: boolean;
  /** `client/README.md`: the client's own documentation, shipped beside it. */
  readonly readme: boolean;
}

export function clientFeatures(toolkit: readonly RenderedFile[], toolkitDir: string): ClientFeatures {
  const text = (rel: string): string => toolkit.find((f) => f.path === `${toolkitDir}/client/${rel}`)?.contents.toString('utf8') ?? '';
  return {
    ca: /^\s*readonly ca\?\s*:/m.test(text('client.ts')),
    readme: toolkit.some((f) => f.path === `${toolkitDir}/client/README.md`),
  };
}
