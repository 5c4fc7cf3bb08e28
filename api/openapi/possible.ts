/**
 * What a document allows where it leaves a point open: every reading the contract knows for
 * it. The refusals of an open document are then the union of each reading's, so the document
 * holds for any faithful API, and narrowing a point only removes answers.
 */
import { MISSING_KEY_CODE } from '../contract/index.js';
import { PLATFORM_REFUSALS, SCOPE_REFUSALS, UNAUTHORIZED_STATUSES } from '../contract/readings.js';
import type { RefusalReadings } from '../contract/server/index.js';
import type { DocumentReadings } from './types.js';

/** Whether GET / is narrowed to one reading (`unknown` leaves it open). */
export function indexReading(readings: DocumentReadings): 'public' | 'key' | undefined {
  return readings.index === 'unknown' ? undefined : readings.index;
}

function oneOrAll<T>(value: T | undefined, all: readonly T[]): readonly T[] {
  return value === undefined ? all : [value];
}

/**
 * Every combination of refusal readings the document allows. An open missing-key code is any
 * code; it is shown as the contract's assumed one, and the text says any other may come.
 */
export function refusalReadings(readings: DocumentReadings): RefusalReadings[] {
  const missingKey = readings.missingKey ?? MISSING_KEY_CODE;
  return oneOrAll(readings.unauthorizedStatus, UNAUTHORIZED_STATUSES).flatMap(
    (unauthorizedStatus) =>
      oneOrAll(readings.scopeRefusal, SCOPE_REFUSALS).flatMap((scopeRefusal) =>
        oneOrAll(readings.platformRefusal, PLATFORM_REFUSALS).map((platformRefusal) => ({
          unauthorizedStatus,
          missingKey,
          scopeRefusal,
          platformRefusal,
        })),
      ),
  );
}
