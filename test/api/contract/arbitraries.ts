import fc from 'fast-check';

/** Kebab-case slugs, the sandbox's reference style: lowercase words joined by single hyphens. */
export const kebabSlug = fc
  .array(fc.stringMatching(/^[a-z0-9]{1,10}$/), { minLength: 1, maxLength: 6 })
  .map((words) => words.join('-'))
  .filter((s) => s.length <= 63);

/**
 * Every slug a real API may use (the format is not shown): any text that can be one path
 * segment, so snake_case, capitals, dots, spaces and Polish letters included.
 */
export const validSlug = fc.oneof(
  kebabSlug,
  kebabSlug.map((s) => s.replace(/-/g, '_')),
  fc
    .string({ minLength: 1, maxLength: 40 })
    .filter((s) => !s.includes('/') && s !== '.' && s !== '..' && !/[\u0000-\u001f\u007f-\u009f]/.test(s)),
  fc.constantFrom('rowery_nowak', 'RoweryNowak', 'sklep.pl', 'serwis kowalski', 'łódź-rowery', 'a..b', '%41'),
);

/** Key-like values: non-empty, no whitespace. */
export const keyValue = fc.stringMatching(/^[A-Za-z0-9_~.+/=-]{1,64}$/);
