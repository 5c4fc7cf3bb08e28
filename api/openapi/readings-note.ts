/**
 * `x-readings`: each point the spec leaves "not shown", with the reading this document narrows
 * it to (none: open) and the readings a faithful API may follow. Keys with a reading to pick are
 * the contract's `READING_KEYS`, as `--dialect` spells them; the rest are fixed assumptions.
 */
import {
  KEY_PREFIXES,
  REQUEST_ID_HEADER,
  TENANT_RESOURCES,
  scopeForResource,
} from '../contract/index.js';
import {
  INDEX_ACCESS_READINGS,
  PLATFORM_REFUSALS,
  RATE_LIMIT_HEADER_STYLES,
  READING_KEYS as K,
  type ReadingField,
  SCOPE_REFUSALS,
  SLUG_STYLES,
  UNAUTHORIZED_STATUSES,
} from '../contract/readings.js';
import { indexReading } from './possible.js';
import type { DocumentReadings, ReadingNote } from './types.js';

const OPEN_POINTS: Readonly<Record<ReadingField, Omit<ReadingNote, 'reading'>>> = {
  slug: { notShown: '§2: the format of a tenant slug', readings: SLUG_STYLES },
  index: {
    notShown: '§5: whether the index endpoint requires a key',
    readings: INDEX_ACCESS_READINGS.filter((r) => r !== 'unknown'),
  },
  unauthorizedStatus: {
    notShown: '§7: the HTTP status that accompanies unauthorized',
    readings: UNAUTHORIZED_STATUSES,
  },
  missingKey: {
    notShown: '§7: the code (and status) for a request with no key',
    readings: 'unauthorized, or any other code such as missing_api_key',
  },
  scopeRefusal: {
    notShown: "§5.4: how a call outside the key's scope is refused",
    readings: SCOPE_REFUSALS,
  },
  platformPaths: {
    notShown: '§4: the concrete sub-paths under /platform/',
    readings: 'any; open: the /platform/{subpath} templates',
  },
  platformRefusal: {
    notShown: '§4.2: what a tenant key gets on /platform/*',
    readings: PLATFORM_REFUSALS,
  },
  rateLimitHeaders: { notShown: '§8: rate-limit headers', readings: RATE_LIMIT_HEADER_STYLES },
};

function narrowedTo(readings: DocumentReadings, field: ReadingField): unknown {
  if (field === 'index') return indexReading(readings);
  const value = readings[field];
  return Array.isArray(value) ? [...(value as readonly string[])] : value;
}

export function readingNotes(readings: DocumentReadings): Record<string, ReadingNote> {
  const open = Object.fromEntries(
    (Object.keys(OPEN_POINTS) as ReadingField[]).map((field) => {
      const reading = narrowedTo(readings, field);
      return [K[field], { ...OPEN_POINTS[field], ...(reading === undefined ? {} : { reading }) }];
    }),
  );
  return {
    ...open,
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
