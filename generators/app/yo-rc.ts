/**
 * The next text of `.yo-rc.json`: our section (answers and the toolkit record) merged over what
 * it held, every other generator's section kept, as yeoman itself writes it (2-space JSON and a
 * newline). Pure, so an unreadable file is refused before anything is written rather than
 * failing after the project's files are in place.
 */
export type YoRcText = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

export const YO_RC = '.yo-rc.json';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function nextYoRc(existing: string | undefined, configKey: string, section: Readonly<Record<string, unknown>>): YoRcText {
  let store: Record<string, unknown> = {};
  if (existing !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(existing);
    } catch (error) {
      return { ok: false, reason: `${YO_RC} is not valid JSON (${error instanceof Error ? error.message : String(error)}); nothing was written. Fix or remove it, then run again.` };
    }
    if (!isObject(parsed)) return { ok: false, reason: `${YO_RC} does not hold a JSON object; nothing was written. Fix or remove it, then run again.` };
    store = parsed;
  }
  const ours = isObject(store[configKey]) ? store[configKey] : {};
  const next = { ...store, [configKey]: { ...ours, ...section } };
  return { ok: true, text: `${JSON.stringify(next, null, 2)}\n` };
}
