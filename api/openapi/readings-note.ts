/**
 * `x-readings`: each point the spec leaves "not shown", with the reading this document
 * describes and the others a faithful API may follow. Keys with a reading to pick are spelled
 * as `repairmon sandbox --dialect` spells them; the rest are the toolkit's fixed assumptions.
 */
import {
  KEY_PREFIXES,
  REQUEST_ID_HEADER,
  TENANT_RESOURCES,
  scopeForResource,
} from '../contract/index.js';
import {
  ERROR_BODIES,
  INDEX_ACCESS_READINGS,
  PLATFORM_REFUSALS,
  RATE_LIMIT_HEADER_STYLES,
  SCOPE_REFUSALS,
  SLUG_STYLES,
  UNAUTHORIZED_STATUSES,
} from '../contract/readings.js';
import type { Readings } from '../contract/server/index.js';
import type { ReadingNote } from './types.js';

export function readingNotes(readings: Readings): Record<string, ReadingNote> {
  return {
    slug: {
      notShown: '§2: the format of a tenant slug',
      reading: readings.slug,
      readings: SLUG_STYLES,
    },
    index: {
      notShown: '§5: whether the index endpoint requires a key',
      reading: readings.index,
      readings: INDEX_ACCESS_READINGS,
    },
    'unauthorized-status': {
      notShown: '§7: the HTTP status that accompanies unauthorized',
      reading: readings.unauthorizedStatus,
      readings: UNAUTHORIZED_STATUSES,
    },
    'missing-key': {
      notShown: '§7: the code (and status) for a request with no key',
      reading: readings.missingKey,
      readings: 'unauthorized, or any other code such as missing_api_key',
    },
    'scope-refusal': {
      notShown: "§5.4: how a call outside the key's scope is refused",
      reading: readings.scopeRefusal,
      readings: SCOPE_REFUSALS,
    },
    'platform-paths': {
      notShown: '§4: the concrete sub-paths under /platform/',
      reading: [...readings.platformPaths],
      readings: 'any; none known: a /platform/{path} template',
    },
    'platform-refusal': {
      notShown: '§4.2: what a tenant key gets on /platform/*',
      reading: readings.platformRefusal,
      readings: PLATFORM_REFUSALS,
    },
    'rate-limit-headers': {
      notShown: '§8: rate-limit headers',
      reading: readings.rateLimitHeaders,
      readings: RATE_LIMIT_HEADER_STYLES,
    },
    'error-bodies': {
      notShown: '§7: the bodies of 401 and 429',
      reading: readings.errorBodies,
      readings: ERROR_BODIES,
    },
    'scope-names': {
      notShown: '§5: the list of scope names',
      reading: [...TENANT_RESOURCES.map(scopeForResource), 'platform'],
      readings: 'any: assumed to be named after the resource',
    },
    'key-format': {
      notShown: '§5: key format rules',
      reading: { ...KEY_PREFIXES },
      readings:
        'any visible ASCII without spaces: prefixes are a hint, never a reason to refuse a key',
    },
    'request-id-header': {
      notShown: 'a request id header',
      reading: REQUEST_ID_HEADER,
      readings: 'any header, or none',
    },
    pagination: {
      notShown: '§4: query parameters, filtering, sorting and pagination',
      reading: 'none; Link: <URL>; rel="next" when sent',
      readings: 'none; a Link header; cursors in data',
    },
    'record-fields': {
      notShown: '§2, §4: the fields of client, bike, repair and log records',
      reading: 'any JSON value',
      readings: 'any',
    },
    'check-order': {
      notShown: '§5: the order of the tenant and scope checks',
      reading: 'tenant first',
      readings: ['tenant first', 'scope first'],
    },
  };
}
