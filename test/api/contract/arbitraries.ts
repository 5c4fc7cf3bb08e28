import fc from 'fast-check';

/** Valid tenant slugs: lowercase alphanumeric words joined by single hyphens, at most 63 characters. */
export const validSlug = fc
  .array(fc.stringMatching(/^[a-z0-9]{1,10}$/), { minLength: 1, maxLength: 6 })
  .map((words) => words.join('-'))
  .filter((s) => s.length <= 63);

/** Key-like values: non-empty, no whitespace. */
export const keyValue = fc.stringMatching(/^[A-Za-z0-9_~.+\/=-]{1,64}$/);
