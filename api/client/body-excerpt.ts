/**
 * A short, readable start of an error body that is not the API envelope, such as a proxy's
 * HTML 502 page: enough to tell "nginx Bad Gateway" from "a maintenance page" in a log line,
 * never a whole page. The attempt has already replaced any key value in the body.
 */

/** Characters kept in `ApiError.bodyExcerpt`. */
export const BODY_EXCERPT_CHARS = 200;

const HTML_START = /^\s*</;
const SCRIPT_OR_STYLE = /<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)/gi;
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
/** A tag, or one cut off at the end of what was read. */
const TAG = /<[^>]*(?:>|$)/g;
const SPACE = /\s+/g;

/** HTML loses its tags, scripts and styles; whitespace collapses; the result is cut to `max`. */
export function bodyExcerptOf(text: string, max = BODY_EXCERPT_CHARS): string {
  const head = text.length > max * 20 ? text.slice(0, max * 20) : text;
  const plain = HTML_START.test(head) ? head.replace(COMMENT, ' ').replace(SCRIPT_OR_STYLE, ' ').replace(TAG, ' ') : head;
  const flat = plain.replace(SPACE, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
