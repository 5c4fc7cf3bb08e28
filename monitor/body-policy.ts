/**
 * Which response bodies the monitor may show anywhere (debug view, history, pages). A tenant
 * resource or /platform/ answer was read with a real key and holds customers' names, phones
 * and e-mails; only `/` and `/docs` hold no tenant's data.
 */
import type { EndpointId } from '../api/contract/index.js';

export const BODY_SHOWN: ReadonlySet<EndpointId> = new Set(['index', 'docs']);

export function bodyShown(endpoint: EndpointId): boolean {
  return BODY_SHOWN.has(endpoint);
}

/** A verdict's detail quotes the start of a body that is not JSON; that quote goes where the body goes. */
export function withheldDetail(endpoint: EndpointId, detail: string): string {
  return bodyShown(endpoint) ? detail : detail.replace(/; starts with .*$/s, '; body not shown');
}
